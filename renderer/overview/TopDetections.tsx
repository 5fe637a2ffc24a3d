// The most frequent detection names as horizontal SVG bars (visx), the names in the
// detection's own words (ClamAV's, not translated), and a table for screen readers.
import { scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { ReactElement } from 'react';
import type { ProtectionOverview } from '../../shared/overview/overview.ts';
import { formatCount } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { ChartTable } from './ChartTable.tsx';

const WIDTH = 200;
const ROW = 14;

export function TopDetections({ detections }: { detections: ProtectionOverview['topDetections'] }): ReactElement {
  const { t, locale } = useTranslator();
  const x = scaleLinear<number>({ domain: [0, Math.max(1, ...detections.map((entry) => entry.count))], range: [0, WIDTH] });
  return (
    <section className="card overview-chart" data-testid="overview-top">
      <h2 className="overview-chart__title">{t('overview.top.title')}</h2>
      {detections.length === 0 ? (
        <p className="muted">{t('overview.top.none')}</p>
      ) : (
        <ol className="overview-top" aria-hidden="true">
          {detections.map((entry) => (
            <li key={entry.name}>
              <span className="overview-top__name" lang="en">
                {entry.name}
              </span>
              <svg className="overview-top__bar" viewBox={`0 0 ${WIDTH} ${ROW}`} preserveAspectRatio="none" focusable="false">
                <Bar className="overview-bar overview-bar--threat" x={0} y={0} width={Math.max(2, x(entry.count))} height={ROW} />
              </svg>
              <span className="overview-top__count">{formatCount(locale, entry.count)}</span>
            </li>
          ))}
        </ol>
      )}
      <ChartTable caption={t('overview.top.title')} head={[t('overview.top.name'), t('overview.threats')]} rows={detections.map((entry) => [entry.name, formatCount(locale, entry.count)] as const)} labelLang="en" />
    </section>
  );
}

// The verdict mix as an SVG ring (visx Pie), each verdict in its colour class, with a legend
// that names the figures (colour is never the only cue) and a table for screen readers.
import { Group } from '@visx/group';
import { Pie } from '@visx/shape';
import type { ReactElement } from 'react';
import type { ProtectionOverview } from '../../shared/overview/overview.ts';
import { formatCount, formatPercent } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { ChartTable } from './ChartTable.tsx';

const SIZE = 140;

export function VerdictMix({ verdicts }: { verdicts: ProtectionOverview['verdicts'] }): ReactElement {
  const { t, locale } = useTranslator();
  const total = verdicts.reduce((sum, entry) => sum + entry.count, 0);
  const label = (verdict: string) => t(`verdict.${verdict}` as MessageKey);
  return (
    <section className="card overview-chart" data-testid="overview-mix">
      <h2 className="overview-chart__title">{t('overview.mix.title')}</h2>
      {total === 0 ? (
        <p className="muted">{t('overview.mix.none')}</p>
      ) : (
        <div className="overview-mix">
          <svg className="overview-ring" viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} aria-hidden="true" focusable="false">
            <Group top={SIZE / 2} left={SIZE / 2}>
              <Pie data={verdicts} pieValue={(entry) => entry.count} outerRadius={SIZE / 2 - 2} innerRadius={SIZE / 2 - 24} padAngle={0.01} pieSort={null}>
                {(pie) => pie.arcs.map((arc) => <path key={arc.data.verdict} className={`overview-slice overview-slice--${arc.data.verdict}`} d={pie.path(arc) ?? ''} />)}
              </Pie>
            </Group>
          </svg>
          <ul className="overview-legend" aria-hidden="true">
            {verdicts.map((entry) => (
              <li key={entry.verdict}>
                <span className={`overview-swatch overview-slice--${entry.verdict}`} />
                <span className="overview-legend__name">{label(entry.verdict)}</span>
                <span className="overview-legend__count">
                  {formatCount(locale, entry.count)} ({formatPercent(locale, entry.count / total)})
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ChartTable caption={t('overview.mix.title')} head={[t('overview.mix.verdict'), t('overview.files')]} rows={verdicts.map((entry) => [label(entry.verdict), formatCount(locale, entry.count)] as const)} />
    </section>
  );
}

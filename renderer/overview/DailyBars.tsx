// Counts per day as SVG bars (visx scales and bars), themed by class from the app's CSS
// variables; the figures are in a table for screen readers.
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { ReactElement } from 'react';
import type { OverviewDay } from '../../shared/overview/overview.ts';
import { formatCount } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { ChartTable } from './ChartTable.tsx';
import { dayText } from './overview-format.ts';
import { useWidth } from './use-width.ts';

const DEFAULT_WIDTH = 720;
const HEIGHT = 150;
const MARGIN = { top: 8, right: 8, bottom: 22, left: 56 };

export function DailyBars({ days, pick, title, tone, testId }: { days: OverviewDay[]; pick: (day: OverviewDay) => number; title: string; tone: 'files' | 'threats'; testId: string }): ReactElement {
  const { t, locale } = useTranslator();
  const [frame, width] = useWidth<HTMLDivElement>(DEFAULT_WIDTH);
  const values = days.map(pick);
  const max = Math.max(1, ...values);
  const x = scaleBand<string>({ domain: days.map((day) => day.day), range: [0, width - MARGIN.left - MARGIN.right], padding: 0.2 });
  const y = scaleLinear<number>({ domain: [0, max], range: [HEIGHT - MARGIN.top - MARGIN.bottom, 0], nice: true });
  const top = y.domain()[1] ?? max;
  const labelled = [0, Math.floor(days.length / 2), days.length - 1];
  const total = values.reduce((sum, value) => sum + value, 0);
  return (
    <section className="card overview-chart" data-testid={testId}>
      <h2 className="overview-chart__title">{title}</h2>
      <p className="muted small">{t('overview.total', { count: formatCount(locale, total) })}</p>
      <div ref={frame} className="overview-bars__frame">
        <svg className={`overview-bars overview-bars--${tone}`} width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" focusable="false">
          <Group left={MARGIN.left} top={MARGIN.top}>
            <line className="overview-axis" x1={0} x2={width - MARGIN.left - MARGIN.right} y1={y(0)} y2={y(0)} />
            <text className="overview-tick" x={-6} y={y(top)} textAnchor="end" dominantBaseline="hanging">
              {formatCount(locale, top)}
            </text>
            <text className="overview-tick" x={-6} y={y(0)} textAnchor="end">
              0
            </text>
            {days.map((day, i) => {
              const value = values[i] ?? 0;
              const barY = y(value);
              return <Bar key={day.day} className="overview-bar" x={x(day.day) ?? 0} y={barY} width={x.bandwidth()} height={Math.max(0, y(0) - barY)} />;
            })}
            {labelled.map((i) => {
              const day = days[i];
              if (!day) return null;
              return (
                <text key={day.day} className="overview-tick" x={(x(day.day) ?? 0) + x.bandwidth() / 2} y={HEIGHT - MARGIN.top - 6} textAnchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}>
                  {dayText(locale, day.day)}
                </text>
              );
            })}
          </Group>
        </svg>
      </div>
      <ChartTable caption={title} head={[t('overview.day'), tone === 'files' ? t('overview.files') : t('overview.threats')]} rows={days.map((day, i) => [dayText(locale, day.day), formatCount(locale, values[i] ?? 0)] as const)} />
    </section>
  );
}

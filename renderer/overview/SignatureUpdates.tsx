// Signature updates over time and the signatures' age (issue 29 §5): per day, the age of the
// signatures in use at its end as a step line, and a dot on each day an update was noticed (visx
// scales and LinePath), themed by class; a legend names both, and tables hold the figures.
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { LinePath } from '@visx/shape';
import type { ReactElement } from 'react';
import type { OverviewDay, SignatureUpdate } from '../../shared/overview/overview.ts';
import { formatCount } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { ChartTable } from './ChartTable.tsx';
import { dayText, momentText } from './overview-format.ts';
import { useWidth } from './use-width.ts';

const DEFAULT_WIDTH = 720;
const HEIGHT = 150;
const MARGIN = { top: 10, right: 10, bottom: 22, left: 56 };

type Point = readonly [number, number];

/** Runs of days whose age is known, each as a step: flat across its day, down or up at the next. */
function steps(days: readonly OverviewDay[], x: (day: string) => number, width: number, y: (age: number) => number): Point[][] {
  const runs: Point[][] = [];
  let run: Point[] = [];
  for (const day of days) {
    if (day.signatureAgeDays === null) {
      if (run.length > 0) runs.push(run);
      run = [];
      continue;
    }
    const at = y(day.signatureAgeDays);
    run.push([x(day.day), at], [x(day.day) + width, at]);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

export function SignatureUpdates({ days, updates }: { days: OverviewDay[]; updates: SignatureUpdate[] }): ReactElement {
  const { t, tn, locale } = useTranslator();
  const [frame, width] = useWidth<HTMLDivElement>(DEFAULT_WIDTH);
  const inner = width - MARGIN.left - MARGIN.right;
  const x = scaleBand<string>({ domain: days.map((day) => day.day), range: [0, inner], padding: 0 });
  const ages = days.map((day) => day.signatureAgeDays ?? 0);
  const y = scaleLinear<number>({ domain: [0, Math.max(1, ...ages)], range: [HEIGHT - MARGIN.top - MARGIN.bottom, 0], nice: true });
  const top = y.domain()[1] ?? 1;
  const at = (day: string) => x(day) ?? 0;
  const labelled = [0, Math.floor(days.length / 2), days.length - 1];
  const newest = updates.at(-1);
  const age = (day: OverviewDay) => (day.signatureAgeDays === null ? t('overview.signatures.unknown') : formatCount(locale, day.signatureAgeDays));
  return (
    <section className="card overview-chart" data-testid="overview-signatures">
      <h2 className="overview-chart__title">{t('overview.signatures.title')}</h2>
      <p className="muted small">
        {tn('overview.signatures.count', updates.length)}
        {newest ? ` ${t('overview.signatures.newest', { time: momentText(locale, newest.at), version: newest.signatureVersion === null ? t('overview.signatures.unknown') : String(newest.signatureVersion) })}` : ''}
      </p>
      <div ref={frame} className="overview-bars__frame">
        <svg className="overview-signatures" width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" focusable="false">
          <Group left={MARGIN.left} top={MARGIN.top}>
            <line className="overview-axis" x1={0} x2={inner} y1={y(0)} y2={y(0)} />
            <text className="overview-tick" x={-6} y={y(top)} textAnchor="end" dominantBaseline="hanging">
              {t('overview.signatures.ageTick', { count: formatCount(locale, top) })}
            </text>
            <text className="overview-tick" x={-6} y={y(0)} textAnchor="end">
              0
            </text>
            {steps(days, at, x.bandwidth(), y).map((run) => (
              <LinePath key={run[0]?.[0]} className="overview-age" data={run} x={(point) => point[0]} y={(point) => point[1]} />
            ))}
            {days.map((day) =>
              day.updates > 0 ? <circle key={day.day} className="overview-update" cx={at(day.day) + x.bandwidth() / 2} cy={y(day.signatureAgeDays ?? 0)} r={4.5} /> : null,
            )}
            {labelled.map((i) => {
              const day = days[i];
              if (!day) return null;
              return (
                <text key={day.day} className="overview-tick" x={at(day.day) + x.bandwidth() / 2} y={HEIGHT - MARGIN.top - 6} textAnchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}>
                  {dayText(locale, day.day)}
                </text>
              );
            })}
          </Group>
        </svg>
      </div>
      <ul className="overview-legend overview-legend--row" aria-hidden="true">
        <li>
          <span className="overview-swatch overview-swatch--age" />
          {t('overview.signatures.ageLegend')}
        </li>
        <li>
          <span className="overview-swatch overview-swatch--update" />
          {t('overview.signatures.updateLegend')}
        </li>
      </ul>
      <ChartTable
        caption={t('overview.signatures.title')}
        head={[t('overview.day'), t('overview.signatures.updates'), t('overview.signatures.age')]}
        rows={days.map((day) => [dayText(locale, day.day), formatCount(locale, day.updates), age(day)] as const)}
      />
      {updates.length > 0 ? (
        <ChartTable
          caption={t('overview.signatures.listCaption')}
          head={[t('overview.signatures.noticed'), t('overview.signatures.version'), t('overview.signatures.built')]}
          rows={updates.map((update) => [
            momentText(locale, update.at),
            update.signatureVersion === null ? t('overview.signatures.unknown') : String(update.signatureVersion),
            update.signatureDate === null ? t('overview.signatures.unknown') : momentText(locale, update.signatureDate),
          ])}
        />
      ) : null}
    </section>
  );
}

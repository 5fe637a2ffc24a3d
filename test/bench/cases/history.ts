// Case 9: a history of 100,000 rows: inserting them all (one transaction),
// opening the database again, and the list's page queries (each the median of
// 25 runs), grouped as the UI uses them. The figure of a group is its slowest query.
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import type { HistoryQuery } from '../../../shared/scans/record.ts';
import { measureHistory } from '../history.ts';
import type { BenchCase, Metric } from './bench-case.ts';
import { fromSamples } from './support/statistics.ts';

type Group = 'plain' | 'filter' | 'search';
const groupOf = (query: HistoryQuery): Group => (query.search !== undefined ? 'search' : query.verdicts || query.statuses ? 'filter' : 'plain');
const GROUP_NAMES: Record<Group, string> = {
  plain: 'page query, no filter (first page, middle page)',
  filter: 'page query, verdict or status filter',
  search: 'page query, name or digest search (± verdict)',
};

export const historyCase: BenchCase = {
  id: 'history',
  title: 'history: 100,000 rows',
  needs: [],
  reps: { full: 3, quick: 2 },
  async run(context) {
    const rows = context.quick ? 5_000 : 100_000;
    const insertMs: number[] = [];
    const openMs: number[] = [];
    const slowest: Record<Group, number[]> = { plain: [], filter: [], search: [] };
    const slowestLabel: Record<Group, string[]> = { plain: [], filter: [], search: [] };
    for (let rep = 0; rep < context.reps; rep++) {
      const measured = measureHistory(mkdtempSync(path.join(context.tmp, `rep-${rep}-`)), rows);
      measured.history.close();
      insertMs.push(measured.insertMs);
      openMs.push(measured.openMs);
      for (const group of ['plain', 'filter', 'search'] as const) {
        const worst = measured.queries.filter((q) => groupOf(q.query) === group).sort((a, b) => b.ms - a.ms)[0]!;
        slowest[group].push(worst.ms);
        slowestLabel[group].push(`${worst.label}: ${worst.ms.toFixed(2)} ms`);
      }
      context.log(`history rep ${rep + 1}/${context.reps}: insert ${measured.insertMs.toFixed(0)} ms, open ${measured.openMs.toFixed(1)} ms; ${measured.queries.map((q) => `${q.label} ${q.ms.toFixed(2)}`).join('; ')}`);
    }
    const pageTarget = { on: 'ours', op: '<', value: 5, text: '< 5 ms' } as const;
    const metrics: Metric[] = [
      fromSamples({ name: `insert ${rows.toLocaleString('en-US')} rows`, unit: 'ms', note: 'one transaction (insertMany)' }, insertMs),
      fromSamples({ name: 'open', unit: 'ms', note: 'openHistory on the filled database (migrations checked)' }, openMs),
    ];
    for (const group of ['plain', 'filter', 'search'] as const) {
      metrics.push(fromSamples({ name: GROUP_NAMES[group], unit: 'ms', target: pageTarget, note: `slowest in the last repetition: ${slowestLabel[group].at(-1)}` }, slowest[group]));
    }
    return metrics;
  },
};

// A round's problems as one finding's message: one kind first (the runner tells
// findings apart by their first 60 characters, so that line holds the kind alone),
// then the details, what the plan did and how the final run ended.
import type { Problem } from './oracle.ts';
import type { RoundResult } from './round.ts';
import type { RunPlan } from './tree-spec.ts';

/** Most telling first: a hang or crash explains the rest; a missing file before what follows from it. */
const ORDER = [
  'final run hung',
  'final run crashed',
  'final run failed',
  'earlier run',
  'missing (name not UTF-8)',
  'missing (hard link)',
  'missing (after',
  'missing',
  'reported twice',
  'unexpected line',
  'EICAR file not reported',
  'wrong verdict',
  'a folder reported',
  'malformed JSON line',
  'exit code',
  'final run without a summary',
  'summary counts',
  'history',
  'job left unfinished',
  'job left running',
];

const rank = (kind: string) => {
  const at = ORDER.findIndex((prefix) => kind.startsWith(prefix));
  return at === -1 ? ORDER.length : at;
};

/** "FuzzFinding: " and the kind fill the runner's 60 characters. */
const KIND_WIDTH = 47;
const DETAILS_PER_KIND = 4;

function planText(plan: RunPlan, result: RoundResult): string {
  const runs = plan.before.map((run, i) => {
    const outcome = result.earlier[i];
    const stop = run.stop ? `${run.stop.signal} at ${run.stop.afterMs} ms (${outcome?.stopped ? 'sent' : 'ended before'})` : 'not stopped';
    const end = outcome ? `exit ${outcome.code ?? outcome.signal}, ${(outcome.ms / 1000).toFixed(1)} s` : 'not run';
    return `#${i + 1} ${stop}, ${run.changes.length} change(s), ${end}`;
  });
  const disk = plan.smallDiskKb === null ? '' : `; data directory on a ${plan.smallDiskKb} KiB tmpfs, then 256 MiB`;
  return `earlier runs: ${runs.join('; ') || 'none'}${disk}; final run: ${plan.finalChanges.length} change(s) during it`;
}

/**
 * `headlined`: the kinds earlier findings of the session led with. The most telling kind
 * not among them leads (and is added), so that a kind found beside a more telling one still
 * gets a finding of its own once (a --keep-going run keeps one finding per leading kind).
 */
export function findingText(problems: readonly Problem[], plan: RunPlan, result: RoundResult, headlined: Set<string>): string {
  const sorted = [...problems].sort((a, b) => rank(a.kind) - rank(b.kind));
  const byRank = [...new Set(sorted.map((problem) => problem.kind))];
  const lead = byRank.find((kind) => !headlined.has(kind)) ?? byRank[0]!;
  headlined.add(lead);
  const kinds = [lead, ...byRank.filter((kind) => kind !== lead)];
  const details = kinds.flatMap((kind) => {
    const ofKind = sorted.filter((problem) => problem.kind === kind);
    const shown = ofKind.slice(0, DETAILS_PER_KIND).map((problem) => `  - ${kind}: ${problem.detail}`);
    return ofKind.length > DETAILS_PER_KIND ? [...shown, `  - ${kind}: … ${ofKind.length - DETAILS_PER_KIND} more`] : shown;
  });
  const final = result.final;
  const tail = final ? final.stderr.trim().split('\n').slice(-2).join(' | ') : '';
  return [
    kinds[0]!.padEnd(KIND_WIDTH),
    kinds.length > 1 ? `  (also: ${kinds.slice(1).join(', ')})` : null,
    ...details,
    `  plan: ${planText(plan, result)}`,
    final ? `  final run: exit ${final.code ?? final.signal} in ${(final.ms / 1000).toFixed(1)} s; stderr ends: ${tail.slice(0, 400)}` : null,
  ]
    .filter((line) => line !== null)
    .join('\n');
}

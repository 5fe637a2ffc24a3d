// A whole round: a tree (tree-arbitrary.ts) and its plan of runs. Most rounds
// have one earlier run, usually stopped by SIGINT or SIGKILL at a random moment
// (start-up, the walk, the scans, the closing); some run on a small tmpfs that
// fills; some change files while a run goes on, the final one included.
import fc from 'fast-check';
import { nameArb } from './names.ts';
import { rawTreeArb, concreteTree, type ValueOf } from './tree-arbitrary.ts';
import { BODIES, SIZE_LIMIT, type Change, type EntrySpec, type RunPlan, type TreeSpec } from './tree-spec.ts';

/** Up to 3 s, mostly while files are scanned: the CLI takes about 0.8 s to start, then a tree scans in 0.1–1 s. */
const delayArb = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 600 }) },
  { weight: 3, arbitrary: fc.integer({ min: 600, max: 1800 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1800, max: 3000 }) },
);

const rawChange = fc.record({ op: fc.constantFrom('add' as const, 'remove' as const, 'rewrite' as const), atMs: delayArb, index: fc.nat(), name: nameArb, body: fc.constantFrom(...BODIES) });

type RawChange = ValueOf<typeof rawChange>;

const someChanges = fc.oneof({ weight: 3, arbitrary: fc.constant<RawChange[]>([]) }, { weight: 1, arbitrary: fc.array(rawChange, { minLength: 1, maxLength: 3 }) });

const earlierRun = fc.record({
  stop: fc.option(fc.record({ signal: fc.constantFrom('SIGINT' as const, 'SIGKILL' as const), afterMs: delayArb }), { freq: 5 }),
  changes: someChanges,
});

const rawPlanArb = fc.record({
  before: fc.oneof(
    { weight: 2, arbitrary: fc.constant<Array<ValueOf<typeof earlierRun>>>([]) },
    { weight: 5, arbitrary: fc.array(earlierRun, { minLength: 1, maxLength: 1 }) },
    { weight: 3, arbitrary: fc.array(earlierRun, { minLength: 2, maxLength: 3 }) },
  ),
  // The history alone takes about 300 KiB; the uploads of a run need more.
  smallDiskKb: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 256, max: 2048 }) }),
  finalChanges: someChanges,
});

/**
 * A small file or a hard link to one: a rewrite (to a body of at most 128 bytes) keeps it small, so
 * it stays a file the walk yields once, not a refusal over the limit (printed for each path that leads to it).
 */
function rewritable(entry: EntrySpec, entries: readonly EntrySpec[]): boolean {
  const file = entry.kind === 'hardlink' ? entries.find((other) => other.kind === 'file' && other.path.join('/') === entry.to.join('/')) : entry;
  return file?.kind === 'file' && (file.size === undefined || file.size <= SIZE_LIMIT);
}

/** A change on an entry of the tree (by index), or a new file in one of its folders; null when the tree has nothing it fits. */
function concreteChange(raw: RawChange, entries: readonly EntrySpec[]): Change | null {
  if (raw.op === 'add') {
    const dirs = [[], ...entries.filter((entry) => entry.kind === 'dir' || entry.kind === 'many').map((entry) => entry.path)];
    const taken = new Set(entries.map((entry) => entry.path.join('/')));
    let path = [...dirs[raw.index % dirs.length]!, raw.name.toString('base64')];
    // A name of the tree gets a suffix: an add makes a file that was not there.
    while (taken.has(path.join('/'))) path = [...path.slice(0, -1), Buffer.concat([Buffer.from(path.at(-1)!, 'base64'), Buffer.from('+')]).toString('base64')];
    return { op: 'add', atMs: raw.atMs, path, body: raw.body };
  }
  const fits = entries.filter((entry) => (raw.op === 'remove' ? entry.kind !== 'dir' && entry.kind !== 'many' : rewritable(entry, entries)));
  if (fits.length === 0) return null;
  const path = fits[raw.index % fits.length]!.path;
  return raw.op === 'remove' ? { op: 'remove', atMs: raw.atMs, path } : { op: 'rewrite', atMs: raw.atMs, path, body: raw.body };
}

function concretePlan(raw: ValueOf<typeof rawPlanArb>, entries: readonly EntrySpec[]): RunPlan {
  const changes = (list: RawChange[]) => list.map((change) => concreteChange(change, entries)).filter((change) => change !== null);
  const before = raw.before.map((run) => ({ stop: run.stop, changes: changes(run.changes) }));
  // A small disk needs a run on it before the remount.
  if (raw.smallDiskKb !== null && before.length === 0) before.push({ stop: null, changes: [] });
  return { before, smallDiskKb: raw.smallDiskKb, finalChanges: changes(raw.finalChanges) };
}

export const roundArb: fc.Arbitrary<TreeSpec> = fc.tuple(rawTreeArb, rawPlanArb).map(([rawTree, rawPlan]) => {
  const entries = concreteTree(rawTree);
  return { entries, plan: concretePlan(rawPlan, entries) };
});

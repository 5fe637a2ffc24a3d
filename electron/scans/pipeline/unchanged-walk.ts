// The unchanged-file skip on a job's walk (issue 26 §6, "the whole run counts"): a walked file whose
// identity matches its entry under the signatures in use now, outside the racy window, is finished
// there and then: its clean verdict goes straight into the job's compact store (intake.ts writes
// it with the batch), with no `scans` row and no turn in the pipeline. Every other file goes the
// normal way (where reuseUnchanged still skips one that becomes known as unchanged later).
// The stats run a few at a time (async: never on the main thread's clock), the walk's order kept, and
// the memory is read for a batch of files at once.
import { stat } from 'node:fs/promises';
import { signatureKey } from '../../../shared/engine/verdict-reuse.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { fitsCompactStore } from '../../history/job-files/add-unchanged.ts';
import { fsPath } from '../../file-names/fs-path.ts';
import type { Pipeline } from './context.ts';
import { tellJudged } from './judged.ts';
import { engineForReuse } from './reuse.ts';
import type { FileIdentity, UnchangedEntry } from '../../history/history.ts';
import { engineOnceLoaded, identityOf, matchingEntry, RACY_WINDOW_MS, unchangedVerdict, type IdentityBeforeScan } from './unchanged.ts';

/** Files looked at ahead of the one the walk hands on (their stats in flight together). */
const LOOKAHEAD = 32;
/** How long the engine's signatures, once asked, stand for the walk (a reload in between is seen at the next look). */
const ENGINE_LOOK_MS = 250;

/** A walked record, and its finished clean verdict when it is unchanged (null: it goes the normal way). */
export interface Looked {
  record: ScanRecord;
  unchanged: ScanRecord | null;
  /** Its identity at intake, when the intake took one (unchanged.ts: the skip's identity before the read). */
  before?: IdentityBeforeScan | undefined;
}

export interface UnchangedWalk {
  /** Takes the walk's next record (`candidate`: a queued file that may be unchanged); returns the records whose look is over, in order. */
  push(record: ScanRecord, candidate: boolean, before?: IdentityBeforeScan): Promise<Looked[]>;
  /** The records still being looked at, in order. */
  drain(): Promise<Looked[]>;
}

/** For a job's walk that reuses verdicts (not --force, not Scan again) with the skip's memory at hand; else null. */
export function unchangedWalk(p: Pipeline, jobId: number | undefined, force: boolean): UnchangedWalk | null {
  if (jobId === undefined || force || !p.history.unchanged || !p.history.jobs?.addUnchanged || p.history.unchanged.none()) return null;
  const keys = new Map<string, { key: Promise<string | null>; atMs: number }>();
  const never = new AbortController().signal;
  const keyFor = (label: string): Promise<string | null> => {
    const known = keys.get(label);
    if (known && p.now() - known.atMs < ENGINE_LOOK_MS) return known.key;
    // Once the engine is known: a job started with Verdict's own clamd still loading would otherwise
    // send every file the normal way (the pipeline waits for the engine as long, in engineOnceLoaded).
    const key = engineForReuse(p, label)
      .then((engineNow) => engineOnceLoaded(p, engineNow, label, never))
      .then((engineNow) => (engineNow.ours ? signatureKey(engineNow.engine) : null));
    keys.set(label, { key, atMs: p.now() });
    void key.then(() => keys.set(label, { key, atMs: p.now() }));
    return key;
  };
  // A record whose identity the intake took is looked up with the others of its batch, in one snapshot (findMany).
  type Item = { record: ScanRecord; look: Promise<ScanRecord | null> | null; before: IdentityBeforeScan | undefined };
  const queue: Item[] = [];
  let unlooked: Item[] = [];
  const lookBatch = () => {
    const items = unlooked;
    unlooked = [];
    let entries: Array<UnchangedEntry | null>;
    try {
      entries = p.history.unchanged!.findMany(items.map((item) => item.before!.file));
    } catch {
      // Not looked up: each goes the normal way (read), as one whose look failed.
      entries = items.map(() => null);
    }
    items.forEach((item, i) => (item.look = lookAt(p, item.record, keyFor, item.before, entries[i]!).catch(() => null)));
  };
  const settle = async (): Promise<Looked> => {
    if (queue[0]!.look === null) lookBatch();
    const { record, look, before } = queue.shift()!;
    return { record, unchanged: await look, before };
  };
  return {
    async push(record, candidate, before) {
      const item: Item = { record, look: candidate ? null : Promise.resolve(null), before };
      queue.push(item);
      if (candidate && before) unlooked.push(item);
      else if (candidate) item.look = lookAt(p, record, keyFor, before).catch(() => null);
      if (unlooked.length >= LOOKAHEAD) lookBatch();
      const done: Looked[] = [];
      while (queue.length > LOOKAHEAD) done.push(await settle());
      return done;
    },
    async drain() {
      const done: Looked[] = [];
      while (queue.length > 0) done.push(await settle());
      return done;
    },
  };
}

/**
 * The record finished with its entry's verdict when its file is unchanged since; else null. `found`: the
 * file's entry when looked up with others (undefined: looked up here, after a stat if need be).
 */
async function lookAt(
  p: Pipeline,
  record: ScanRecord,
  keyFor: (label: string) => Promise<string | null>,
  before: IdentityBeforeScan | undefined,
  found?: UnchangedEntry | null,
): Promise<ScanRecord | null> {
  const route = { path: record.path, origin: record.origin };
  const availability = p.options.service(route);
  // A paused or missing service, or one that is not the engine on this machine: the normal way says why.
  if (!availability.ok) return null;
  // The intake's fstat when it took one (the same facts, in full); else a stat now.
  const { file, atMs } = before ?? (await identityNow(p, record.path));
  if (file === null) return null;
  const entry = matchingEntry(p, file, atMs, found);
  if (!entry) return null;
  // Changed this close to now: its times may not tell a write in the same tick (git's racy timestamps).
  const racyFrom = BigInt(Math.floor(atMs - RACY_WINDOW_MS)) * 1_000_000n;
  if (BigInt(file.mtimeNs) >= racyFrom || BigInt(file.ctimeNs) >= racyFrom) return null;
  const key = await keyFor(availability.service.label);
  if (key === null || key !== entry.signatureKey) return null;
  const finished: ScanRecord = { ...record, ...unchangedVerdict(p, entry) };
  if (!fitsCompactStore(finished)) return null;
  // The file its verdict stands for: the recheck's memory learns it without a stat of its own.
  tellJudged(finished, file);
  return finished;
}

async function identityNow(p: Pipeline, path: string): Promise<{ file: FileIdentity | null; atMs: number }> {
  const info = await stat(fsPath(path), { bigint: true });
  return { file: info.isFile() ? identityOf(info) : null, atMs: p.now() };
}

// The unchanged-file skip (issue 26 §6): a file whose identity (device, inode, size, mtime and
// ctime in nanoseconds) is the one it had when the same engine and signatures judged it clean
// is not read again; its row reuses that verdict and names the scan that read the file.
// An entry is made only for a file that stood still through its scan and was not changed within
// RACY_WINDOW_MS before it (git's racy-timestamp rule: a write in the same clock tick as the scan
// would leave the times unchanged). Another engine or other signatures simply do not match.
import { statSync, type BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { signatureKey } from '../../../shared/engine/verdict-reuse.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { fsPath } from '../../file-names/fs-path.ts';
import type { FileIdentity, UnchangedEntry } from '../../history/history.ts';
import { isoNow, type Pipeline } from './context.ts';
import { forget } from './memory.ts';
import type { EngineNow } from './options.ts';
import { saveVerdict } from './verdict.ts';

/** A file changed this close before its scan (or after it began) gets no entry. */
export const RACY_WINDOW_MS = 3_000;

/** Longest a file with an entry waits for Verdict's own clamd to finish loading (it would wait at the service anyway). */
const ENGINE_START_WAIT_MS = 60_000;
const ENGINE_LOOK_MS = 100;

/** The file as it was before it was read, kept with its record until its verdict. */
export interface IdentityBeforeScan {
  file: FileIdentity;
  /** When that stat was taken (ms since the epoch, the pipeline's clock). */
  atMs: number;
  /** Taken at intake and not yet looked at: the file's first turn uses it instead of a stat (a retry stats again). */
  atIntake?: true;
}

/**
 * Before a file is read: true when it is finished with an earlier clean verdict (unchanged since,
 * same engine and signatures now); false when it is to be read, its identity then kept on its
 * tracked record for rememberUnchanged.
 */
export async function reuseUnchanged(p: Pipeline, record: ScanRecord, engineNow: EngineNow, label: string, signal: AbortSignal): Promise<boolean> {
  const store = p.history.unchanged;
  // A remote service's engine is not known (ours: false), nor is reuse wanted then (reuseVerdictDays 0).
  const tracked = p.memory.records.get(record.id);
  if (!store || !engineNow.ours) {
    if (tracked?.unchangedBefore?.atIntake) delete tracked.unchangedBefore;
    return false;
  }
  // The intake's fstat of this very file when it took one (the same facts, dated no later); else a stat now.
  const atIntake = tracked?.unchangedBefore?.atIntake ? tracked.unchangedBefore : null;
  const { file, atMs } = atIntake ?? (await identityBeforeRead(p, record.path));
  if (file === null) {
    if (tracked) delete tracked.unchangedBefore;
    return false;
  }
  const entry = matchingEntry(p, file, atMs);
  const loaded = entry ? await engineOnceLoaded(p, engineNow, label, signal) : null;
  // The backend may have changed meanwhile to one that is not ours: then nothing is skipped.
  const key = loaded?.ours ? signatureKey(loaded.engine) : null;
  if (entry && key !== null && entry.signatureKey === key) {
    finishUnchanged(p, record, entry);
    return true;
  }
  if (tracked) tracked.unchangedBefore = { file, atMs };
  return false;
}

/** Synchronous: the verdict's row waits in the open grouped commit, and the entry must join it. */
function identityNow(path: string): FileIdentity | null {
  try {
    const info = statSync(fsPath(path), { bigint: true, throwIfNoEntry: false });
    return info ? identityOf(info) : null;
  } catch {
    return null;
  }
}

/** The file's identity by a stat of its path now (null: not a regular file, or it cannot be looked at: reading it tells why). */
async function identityBeforeRead(p: Pipeline, path: string): Promise<{ file: FileIdentity | null; atMs: number }> {
  const atMs = p.now();
  try {
    const info = await stat(fsPath(path), { bigint: true });
    return { file: info.isFile() ? identityOf(info) : null, atMs };
  } catch {
    return { file: null, atMs };
  }
}

/**
 * After a clean verdict for a file that was read (scanned, or its content's verdict reused): its
 * entry, written in the grouped commit its verdict's row is in. None when the file changed during
 * the scan, was changed within RACY_WINDOW_MS of it, or the verdict names no engine to match later.
 * `unchangedUntilVerdict`: the engine scanned the very file `before` names by its descriptor and saw it
 * unchanged until its verdict (TrackedRecord.judgedUntilVerdict), so no stat is needed to know it.
 */
export function rememberUnchanged(p: Pipeline, before: IdentityBeforeScan | null | undefined, final: ScanRecord | null, unchangedUntilVerdict = false): void {
  const store = p.history.unchanged;
  // Only an identity reuseUnchanged looked at counts (an intake's it never saw: a forced scan's file).
  if (!store || !before || before.atIntake || !final || final.status !== 'completed' || final.safe !== true) return;
  const key = signatureKey(final.engine);
  if (key === null) return;
  // The engine's check compares milliseconds: a write since `before` that kept them would have to fall in the
  // millisecond of the file's times, which the racy-timestamp rule below refuses anyway (times this old are not racy).
  const after = unchangedUntilVerdict ? before.file : identityNow(final.path);
  if (!after || !sameIdentity(before.file, after)) return;
  const racyFrom = BigInt(Math.floor(before.atMs - RACY_WINDOW_MS)) * 1_000_000n;
  if (BigInt(after.mtimeNs) >= racyFrom || BigInt(after.ctimeNs) >= racyFrom) return;
  const { sha256, md5, sha1, detailed, fileType } = final;
  store.remember({
    file: before.file,
    signatureKey: key,
    recordId: final.reusedFromId ?? final.id,
    verdict: { sha256, md5, sha1, detailed, fileType, engine: final.engine ?? null },
    recordedMs: p.now(),
  });
}

/**
 * The engine now; before the service has said which engine it runs, or while ClamAV has not
 * answered yet (Verdict's own clamd loading), the engine once known: files sent meanwhile would
 * wait for it at the service anyway.
 */
export async function engineOnceLoaded(p: Pipeline, engineNow: EngineNow, label: string, signal: AbortSignal): Promise<EngineNow> {
  let now = engineNow;
  // Not known yet: no engine reported, or ClamAV that has not answered VERSION (loading, or not answering: the service holds files then too).
  const waiting = () => now.ours && signatureKey(now.engine) === null && (now.engine === null || (now.engine.name === 'clamav' && now.engine.version === null));
  if (!waiting() || !p.options.engineNow) return now;
  // One wait for the whole pipeline, not one per file: an engine that never says is read past once it is over.
  let until = waitsUntil.get(p.memory);
  if (until === undefined) waitsUntil.set(p.memory, (until = p.now() + ENGINE_START_WAIT_MS));
  while (waiting() && p.now() < until) {
    await delay(ENGINE_LOOK_MS, signal);
    now = await p.options.engineNow(label);
  }
  return now;
}

/** Per pipeline: when waiting for its engine to be known ends (engineOnceLoaded). */
const waitsUntil = new WeakMap<object, number>();

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** The file's entry when it is the same file (dev, ino, size, times) and recent enough to reuse; else null. `known`: its entry, already read. */
export function matchingEntry(p: Pipeline, file: FileIdentity, atMs: number, known?: UnchangedEntry | null): UnchangedEntry | null {
  const found = known === undefined ? p.history.unchanged?.find(file.dev, file.ino) : known;
  return found && sameIdentity(found.file, file) && found.recordedMs >= atMs - p.options.settings().reuseVerdictDays * 86_400_000 ? found : null;
}

/** A file finished with its entry's clean verdict: the same fields whether it is saved as a row or in a job's compact store. */
export function unchangedVerdict(p: Pipeline, entry: UnchangedEntry) {
  const { verdict } = entry;
  return {
    size: entry.file.size,
    sha256: verdict.sha256,
    md5: verdict.md5,
    sha1: verdict.sha1,
    status: 'completed',
    pendingReason: null,
    safe: true,
    detailed: verdict.detailed,
    findings: [],
    engine: verdict.engine,
    fileType: verdict.fileType,
    completedAt: isoNow(p),
    durationMs: 0,
    error: null,
    reusedFromId: entry.recordId,
    reuseKind: 'unchanged',
  } satisfies Partial<ScanRecord>;
}

function finishUnchanged(p: Pipeline, record: ScanRecord, entry: UnchangedEntry): void {
  forget(p.memory, record.id);
  saveVerdict(p, record.id, unchangedVerdict(p, entry), record, true);
}

export function identityOf(info: BigIntStats): FileIdentity {
  return { dev: String(info.dev), ino: String(info.ino), size: Number(info.size), mtimeNs: String(info.mtimeNs), ctimeNs: String(info.ctimeNs) };
}

export const sameIdentity = (a: FileIdentity, b: FileIdentity): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

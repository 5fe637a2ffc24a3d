// Intake: the paths handed in are walked (by the intake port), and each file or
// refusal becomes a history row first, with its external reference; queued rows
// are written in batches and go in line. A file handed in again while it waits for its
// turn adds nothing (outside a job); an excluded one is listed as skipped, never sent.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { LINK_OUTSIDE } from '../../../shared/scans/exclusion.ts';
import { queuedRecord, type ModeChoice, type RecordError, type ScanOrigin, type ScanRecord, type SubmitSummary } from '../../../shared/scans/record.ts';
import { exclusionError } from '../../exclusions/exclusion-matcher.ts';
import { findWatchedFolder } from '../../exclusions/watched-folder.ts';
import { recordErrorOf } from '../failures.ts';
import { decideMode } from '../mode.ts';
import type { IntakeEntry } from '../ports.ts';
import { makeReference } from '../reference.ts';
import { isoNow, notifyIdle, type Pipeline } from './context.ts';
import { laneFor } from './lanes.ts';
import { enqueue, ownerOf, trackRecord } from './memory.ts';
import type { SubmitOptions } from './options.ts';
import type { IdentityBeforeScan } from './unchanged.ts';
import { unchangedWalk, type Looked } from './unchanged-walk.ts';
import { judgedIdentity, tellJudged } from './judged.ts';

// A batch's rows are written on the core's thread in one go (with the commit): 500 took 60-110 ms on a
// history of 100,000 scans, 200 about half that (issue 26 §5: the window waits for no task over ~50 ms).
const INSERT_BATCH = 200;
const INSERT_BATCH_MS = 250;
// An unchanged file finished on the walk is a narrow compact-store row, about a quarter of a `scans` insert:
// four count as one row, so an unchanged rescan commits a quarter as often (each commit rewrites the index
// pages its batch touched).
const UNCHANGED_PER_ROW = 4;

export async function submit(p: Pipeline, paths: readonly string[], submission: SubmitOptions): Promise<SubmitSummary & { ids: string[] }> {
  if (p.memory.closed) throw new Error('The scan pipeline is closed.');
  const { origin } = submission;
  const force = submission.force === true || origin === 'rescan';
  const choice = submission.mode ?? p.options.settings().mode;
  const summary: SubmitSummary = { queued: 0, skipped: 0, linksNotFollowed: 0, failed: 0 };
  // A job's rows are found by their job id: its walk may yield millions, so their ids are not collected.
  const ids: string[] | null = submission.jobId === undefined ? [] : null;
  const batch = insertBatch(p, { force, consentedTo: submission.uploadConsent ?? null, jobId: submission.jobId, basicOnly: submission.basicOnly === true });
  const afterBatch = async (records: readonly ScanRecord[] | null) => {
    if (records && submission.afterBatch) await submission.afterBatch(records);
  };
  p.memory.intakeRunning++;
  try {
    // An excluded folder is not walked: the intake yields it once, listed as skipped (a rescan walks it).
    const excludedFolder = (folder: string) => exclusionOf(p, folder, null, origin, 'folder');
    const within = submission.within === undefined ? {} : { within: submission.within };
    const intakeOptions = force ? within : { excludedFolder, ...within };
    const entries = submission.walk ? submission.walk(intakeOptions) : p.options.intake(paths, intakeOptions);
    // A job's file unchanged since its clean verdict is finished on the walk, straight into its compact store.
    const looking = unchangedWalk(p, submission.jobId, force);
    const take = async (looked: readonly Looked[]) => {
      for (const { record, unchanged, before } of looked) await afterBatch(batch.add(unchanged ?? record, unchanged !== null, before));
    };
    for await (const entry of entries) {
      // Checked first: an excluded file is listed as skipped, never sent (a rescan is "scan anyway").
      const excluded = entry.ok && !force ? exclusionOf(p, entry.path, entry.size, origin) : null;
      // A drop joins the row already waiting for the same file (its caller gets that row's id). A job never
      // does: its results must list every file it walked, so it records its own row even when another job's
      // row for the file is still queued (identical content then follows one scan: leaders/followers).
      const waiting = entry.ok && !force && !excluded && submission.jobId === undefined ? p.memory.waitingByPath.get(entry.path) : undefined;
      const where = waiting === undefined ? null : ownerOf(p.memory, waiting);
      if (waiting !== undefined && (where === 'ready' || where === 'lane')) {
        // Read when its turn comes, so the newest content counts: the skip looks at this newest identity.
        const tracked = p.memory.records.get(waiting);
        if (tracked) tracked.unchangedBefore = beforeOf(p, entry);
        ids?.push(waiting);
        summary.queued++;
        continue;
      }
      const id = randomUUID();
      ids?.push(id);
      const fresh = newRecord(p, id, entry.path, origin, isoNow(p));
      // A job's rows say so in every event, so the window can keep them inside the job's row.
      const base = submission.jobId === undefined ? fresh : { ...fresh, jobId: submission.jobId };
      const { record, counts } = recordOf(p, entry, base, excluded, choice);
      summary[counts]++;
      if (looking) await take(await looking.push(record, record.status === 'queued', beforeOf(p, entry)));
      else await afterBatch(batch.add(record, false, beforeOf(p, entry)));
      if (p.memory.closed) break;
    }
    if (looking) await take(await looking.drain());
    await afterBatch(batch.flush());
  } finally {
    p.memory.intakeRunning--;
    notifyIdle(p);
  }
  return { ...summary, ids: ids ?? [] };
}

/** The row an intake entry becomes, and where it counts in the summary. */
function recordOf(p: Pipeline, entry: IntakeEntry, base: ScanRecord, excluded: RecordError | null, choice: ModeChoice): { record: ScanRecord; counts: keyof SubmitSummary } {
  const at = base.queuedAt;
  if (entry.ok && excluded) return { counts: 'skipped', record: { ...base, size: entry.size, status: 'skipped', error: excluded, completedAt: at } };
  if (!entry.ok && entry.excluded === true) {
    // An excluded folder, or a link out of the folder being walked: never followed, so nothing is sent
    // (a rescan of the link checks it against that folder again). Counted apart in the summary.
    const { code, message, params } = entry;
    const record: ScanRecord = { ...base, status: 'skipped', error: { code, message, ...(params ? { params } : {}) }, completedAt: at };
    return { counts: code === LINK_OUTSIDE ? 'linksNotFollowed' : 'skipped', record };
  }
  if (entry.ok) {
    const mode = decideMode({ origin: base.origin, size: entry.size, choice });
    return { counts: 'queued', record: { ...base, size: entry.size, mode, pendingReason: laneFor(p, base).paused?.reason ?? null } };
  }
  return { counts: 'failed', record: { ...base, status: 'failed', error: recordErrorOf(entry), completedAt: at } };
}

/** Rows are written in batches (a folder of thousands is one transaction per batch); queued ones then go in line. */
function insertBatch(p: Pipeline, taken: { force: boolean; consentedTo: string | null; jobId: number | undefined; basicOnly: boolean }) {
  let batch: ScanRecord[] = [];
  /** The queued files' identities at intake, by record id, until they are tracked. */
  let befores = new Map<string, IdentityBeforeScan>();
  /** Finished on the walk, unchanged: they go to the job's compact store, never to `scans`. */
  let unchanged: ScanRecord[] = [];
  let startedAt = 0;
  /** Writes the batch; returns the records written (null: nothing to write). */
  const flush = (): ScanRecord[] | null => {
    if (batch.length + unchanged.length === 0) return null;
    const rows = batch;
    batch = [];
    const identities = befores;
    befores = new Map();
    if (rows.length > 0) p.history.insertMany(rows, taken.jobId);
    const stored = unchanged.length > 0 ? p.history.jobs!.addUnchanged!(unchanged) : [];
    // The stored copies (their compact ids) carry the identity each verdict stands for, as the walk took it.
    stored.forEach((record, i) => tellJudged(record, judgedIdentity(unchanged[i]!)));
    unchanged = [];
    const records = [...rows, ...stored];
    for (const record of records) {
      p.events.record(record);
      if (record.status !== 'queued') continue;
      const route = { path: record.path, origin: record.origin };
      trackRecord(p.memory, { id: record.id, route, forced: taken.force, basicOnly: taken.basicOnly, lookupFirst: false, consentedTo: taken.consentedTo, waitsForItsPath: !taken.force });
      const tracked = p.memory.records.get(record.id)!;
      // A job's file: its first turn takes the record from here instead of reading back the row just written. Only a
      // job's: its walk waits for room (run-job.ts), so few are held; a drop of 100,000 files would hold them all.
      if (taken.jobId !== undefined) tracked.fresh = record;
      const before = identities.get(record.id);
      if (before) tracked.unchangedBefore = before;
      enqueue(p.memory, record.id);
    }
    p.events.countsChanged();
    p.pump();
    return records;
  };
  const add = (record: ScanRecord, finished = false, before?: IdentityBeforeScan): ScanRecord[] | null => {
    (finished ? unchanged : batch).push(record);
    if (before && !finished) befores.set(record.id, before);
    if (batch.length + unchanged.length === 1) startedAt = p.now();
    return batch.length + unchanged.length / UNCHANGED_PER_ROW >= INSERT_BATCH || p.now() - startedAt >= INSERT_BATCH_MS ? flush() : null;
  };
  return { add, flush };
}

/**
 * The file's identity at intake, when the intake took one: dated no later than its fstat on the pipeline's
 * clock too (the racy-timestamp rule measures from it). The unchanged-file skip looks at it, except in Scan
 * again (force), which reads every file; either way it is the identity a verdict judged (judged.ts) when the
 * opened file agrees, so the recheck's memory need not stat the file (a forced 20,000-file scan: 0.7 s of the core's thread).
 */
function beforeOf(p: Pipeline, entry: IntakeEntry): IdentityBeforeScan | undefined {
  if (!entry.ok || !entry.identity) return undefined;
  return { file: entry.identity.file, atMs: Math.min(entry.identity.atMs, p.now()), atIntake: true };
}

/** Why an accepted file, or a folder met by the intake, is not scanned (an exclusion or the automatic size limit), or null. */
function exclusionOf(p: Pipeline, path: string, size: number | null, origin: ScanOrigin, kind: 'file' | 'folder' = 'file'): RecordError | null {
  const { exclusions, watchedFolders } = p.options;
  if (!exclusions) return null;
  const automatic = origin === 'watch';
  const folder = automatic && watchedFolders ? findWatchedFolder(path, watchedFolders()) : null;
  const hit = exclusions().check(path, { size, automatic, kind, ...(folder ? { folderId: folder.id } : {}) });
  return hit ? exclusionError(hit, size, kind) : null;
}

function newRecord(p: Pipeline, id: string, path: string, origin: ScanOrigin, at: string): ScanRecord {
  return queuedRecord({
    id,
    path,
    fileName: basename(path) || path,
    origin,
    backend: p.options.backendLabel({ path, origin }),
    externalReferenceId: makeReference(p.options.installId, id),
    queuedAt: at,
  });
}

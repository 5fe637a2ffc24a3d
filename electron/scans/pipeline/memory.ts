// What the pipeline holds in memory while it runs; the records themselves live in
// history. One TrackedRecord per record the pipeline holds (everything it knows
// about the record that history does not say), the ready line, the lanes and the
// content in flight. A record enters `records` in trackRecord() (intake, recovery)
// and leaves it in forget() only, so nothing about a finished record stays behind.
import { IdQueue } from '../id-queue.ts';
import type { RecordRoute } from './options.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { FileIdentity } from '../../history/history.ts';
import type { IdentityBeforeScan } from './unchanged.ts';

/** Where a tracked record is. `lane`: waiting in its service's lane (paused, or backing off) rather than in the ready line. */
export type Owner = 'ready' | 'active' | 'following' | 'parked' | 'delayed' | 'follower' | 'held' | 'lane';
export type AbortReason = 'closing' | 'paused' | 'backend_changed';
/** The step a record's running work is in: sending it, or following its scan at the service. */
export type Phase = 'upload' | 'follow';

/** One service's share of the queue: its pause and backoff, and the records waiting for them to lift. */
export interface Lane {
  label: string;
  paused: { reason: string; message: string } | null;
  backoff: { attempt: number; until: number };
  waiting: IdQueue;
  timer: NodeJS.Timeout | null;
}

export interface TrackedRecord {
  readonly id: string;
  /** Path and origin (they never change): finds the record's lane without a read. */
  readonly route: RecordRoute;
  /** null only within one synchronous move from one place to the next. */
  where: Owner | null;
  /** The service label the record is working with (set once it is active). */
  workingAt: string | null;
  /** Aborts its running work (upload or follow). */
  controller: AbortController | null;
  /** A followed scan's retry after a backoff. */
  retryTimer: NodeJS.Timeout | null;
  /** Its POST may have reached the service: look the reference up before sending again. */
  lookupFirst: boolean;
  /** Must not reuse an earlier verdict (scan again). */
  readonly forced: boolean;
  /** "Scan with basic checks only": need not wait for ClamAV at the service (kept in memory only). */
  readonly basicOnly?: boolean;
  /** The service origin the user agreed to send it to (given with the submission, or later). */
  consentedTo: string | null;
  unclearAttempts: number;
  changeAttempts: number;
  /** Its path while it is the entry for that path in `waitingByPath`. */
  waitingPath: string | null;
  /** Its file's identity before it was read, for the unchanged-file skip's entry (unchanged.ts). */
  unchangedBefore?: IdentityBeforeScan;
  /** That identity, once the opened file's fstat agreed with it: the file its verdict judges (judged.ts). */
  judged?: FileIdentity;
  /** The engine scanned that very file (its descriptor), unchanged until its verdict: rememberUnchanged need not stat it. */
  judgedUntilVerdict?: true | undefined;
  /**
   * The record as the intake wrote it, until its first turn takes it instead of reading it back. Only the pipeline
   * writes a row before its verdict, and each of its writes drops this (context.ts), so it is never stale.
   */
  fresh?: ScanRecord | undefined;
}

export interface PipelineMemory {
  /** Every record the pipeline holds, in the order each was last placed (the order they go back in line). */
  readonly records: Map<string, TrackedRecord>;
  /** Ids waiting for a slot; an id counts only while its record is `ready` (stale entries are skipped). */
  readonly ready: IdQueue;
  readonly lanes: Map<string, Lane>;
  /**
   * Files waiting for their turn, by path: handing the same file in again before
   * it started adds nothing (it is read when its turn comes, so the newest content counts).
   */
  readonly waitingByPath: Map<string, string>;
  /** Identical content in flight, by sha256: the first upload leads, the rest wait for its verdict. */
  readonly leaders: Map<string, string>;
  readonly followers: Map<string, string[]>;
  /**
   * Why earlier verdicts were not reused, each with the engine it was told for: logged once per reason and engine
   * (a 20,000-file rescan after a signature update would write one line per file).
   */
  readonly reuseRefusalsLogged: Set<string>;
  readonly running: Set<Promise<void>>;
  readonly idleWaiters: Array<() => void>;
  /** Tracked records that are somewhere (`where` is set), and those active and following. */
  placed: number;
  active: number;
  following: number;
  intakeRunning: number;
  started: boolean;
  closed: boolean;
}

export function createMemory(): PipelineMemory {
  return {
    records: new Map(),
    ready: new IdQueue(),
    lanes: new Map(),
    waitingByPath: new Map(),
    leaders: new Map(),
    followers: new Map(),
    reuseRefusalsLogged: new Set(),
    running: new Set(),
    idleWaiters: [],
    placed: 0,
    active: 0,
    following: 0,
    intakeRunning: 0,
    started: false,
    closed: false,
  };
}

export interface NewTrackedRecord {
  id: string;
  route: RecordRoute;
  forced: boolean;
  basicOnly?: boolean;
  lookupFirst: boolean;
  consentedTo: string | null;
  /** It is the one waiting for its path (a forced scan is not: handing the file in again adds a record). */
  waitsForItsPath: boolean;
}

/** The pipeline takes a record up (then places it: enqueue). */
export function trackRecord(memory: PipelineMemory, init: NewTrackedRecord): void {
  const { id, route } = init;
  memory.records.set(id, {
    id,
    route,
    where: null,
    workingAt: null,
    controller: null,
    retryTimer: null,
    lookupFirst: init.lookupFirst,
    forced: init.forced,
    ...(init.basicOnly ? { basicOnly: true } : {}),
    consentedTo: init.consentedTo,
    unclearAttempts: 0,
    changeAttempts: 0,
    waitingPath: init.waitsForItsPath ? route.path : null,
  });
  if (init.waitsForItsPath) memory.waitingByPath.set(route.path, id);
}

/** Drops everything held about a record (it reached a terminal state, or nothing holds it any more). */
export function forget(memory: PipelineMemory, id: string): void {
  const record = memory.records.get(id);
  if (!record) return;
  setOwner(memory, id, null);
  forgetWaitingPath(memory, record);
  if (record.retryTimer) clearTimeout(record.retryTimer);
  memory.records.delete(id);
}

/** The record started (or finished): handing its file in again makes a new record. */
export function forgetWaitingPath(memory: PipelineMemory, record: TrackedRecord): void {
  const path = record.waitingPath;
  if (path === null) return;
  record.waitingPath = null;
  if (memory.waitingByPath.get(path) === record.id) memory.waitingByPath.delete(path);
}

export const ownerOf = (memory: PipelineMemory, id: string): Owner | null => memory.records.get(id)?.where ?? null;

/** Moves a tracked record to `next` (null: in between), keeping the counts; an id no longer tracked is ignored. */
export function setOwner(memory: PipelineMemory, id: string, next: Owner | null): void {
  const record = memory.records.get(id);
  if (!record) return;
  const previous = record.where;
  if (previous === 'active') memory.active--;
  if (previous === 'following') memory.following--;
  if (previous !== null) memory.placed--;
  record.where = next;
  if (next !== null) memory.placed++;
  if (next === 'active') memory.active++;
  if (next === 'following') memory.following++;
  if (previous === null && next !== null) {
    // Placed again: it moves to the end of `records`, whose order is the order records go back in line.
    memory.records.delete(id);
    memory.records.set(id, record);
  }
}

/** Into the ready line (at the front: it keeps its turn), unless it is there or working already. */
export function enqueue(memory: PipelineMemory, id: string, front = false): void {
  const current = memory.records.get(id)?.where;
  if (current === undefined || current === 'ready' || current === 'active') return;
  setOwner(memory, id, 'ready');
  if (front) memory.ready.pushFront(id);
  else memory.ready.push(id);
}

/** Each placed record and where it is, in order: a snapshot, for steps that move records while they go through them. */
export const placedRecords = (memory: PipelineMemory): Array<[string, Owner]> =>
  [...memory.records.values()].flatMap((record) => (record.where === null ? [] : [[record.id, record.where] as [string, Owner]]));

export const isIdle = (memory: PipelineMemory): boolean => memory.placed === 0 && memory.intakeRunning === 0;

// Scan history: one SQLite row per scan in `<dataDir>/history.sqlite`, with
// the queries the UI, the CLI and crash recovery need. Synchronous (node:sqlite
// DatabaseSync); every statement is prepared once and reused.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Disposition, HistoryQuery, Page, QueueCounts, ScanRecord } from '../../shared/scans/record.ts';
import { openOrSetAside, openSqliteFile } from '../sqlite/open-sqlite.ts';
import { statementCache } from '../sqlite/statements.ts';
import { startWalCheckpointer } from '../sqlite/wal-checkpointer.ts';
import { csvChunks, jsonChunks, type ExportTarget } from './export-format.ts';
import { createGroupCommit } from './group-commit.ts';
import { exportWith } from './history-export.ts';
import { countSafeByBuiltin, markRescanRequested, safeByBuiltinPaths } from './history-engine.ts';
import { historyJobs, type HistoryJobs } from './history-jobs.ts';
import { counts, findReusable, listPending, queryPage, recordById, recordByReference, withDisposition, withFindingName } from './history-reads.ts';
import type { HistoryDb } from './history-db.ts';
import { applyPatch, clearFinished, deleteOlderThan, insertRecords, keepLast, updateRecord } from './history-writes.ts';
import { migrate } from './migrations.ts';
import { forgetJobFileIds } from './job-files/add-unchanged.ts';
import { openCompactNames } from './job-files/compact-names.ts';
import { applyOrFinishClean } from './job-files/finish-clean.ts';
import { openNameIndex } from './name-index.ts';
import { historyOverview, type OverviewWindow } from './overview-queries.ts';
import { signatureUpdatesOn, type SignatureUpdates } from './signature-updates.ts';
import type { ScanRecordPatch } from './row-mapping.ts';
import { quarantineJudgementsOn, recheckStoreOn, type QuarantineJudgements, type RecheckStore } from './recheck-candidates.ts';
import { findUnchanged, forgetUnchanged, forgetUnchangedBefore, rememberUnchanged, type UnchangedEntry } from './unchanged-files.ts';

export type { ScanRecordPatch } from './row-mapping.ts';
export type { ExportTarget } from './export-format.ts';
export type { HistoryJobs } from './history-jobs.ts';
export type { FileIdentity, ReusedVerdict, UnchangedEntry } from './unchanged-files.ts';

export const HISTORY_FILE_NAME = 'history.sqlite';

export interface HistoryOptions {
  /** Database file name inside dataDir (default history.sqlite). */
  fileName?: string;
  /**
   * FULL (default): a commit is on disk before insert() returns, so a row written
   * before a POST survives a power cut. NORMAL: survives a process crash only.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** How long a statement waits for another process's lock (app and CLI share a data dir). */
  busyTimeoutMs?: number;
  /**
   * Use the trigram name index when this SQLite has FTS5 (default true). false
   * behaves like a build without FTS5: same results, searches scan.
   */
  nameIndex?: boolean;
  /** Longest a write made with `apply(…, 'soon')` waits for its commit (default 50 ms). */
  commitWindowMs?: number;
  /** The WAL's pages before a commit checkpoints it (SQLite's wal_autocheckpoint; default 1,000). */
  walAutocheckpointPages?: number;
  /**
   * A job's clean verdict moves its file into the compact store as it is written (job-files/finish-clean.ts),
   * not at the job's end (default false: the app compacts after the job, when nothing waits; the CLI waits for it).
   */
  compactOnVerdict?: boolean;
  /** A grouped commit failed after its window (its writes are lost; recovery redoes them). */
  onLateCommitError?: (error: unknown) => void;
  /** Checkpoint the WAL on a thread of its own, not in this thread's commits (the core: sqlite/wal-checkpointer.ts). */
  checkpointThread?: boolean;
  /** SQLite's page cache for this connection, in KiB (default 32 MiB): memory that stays taken once a large history filled it. */
  cacheKib?: number;
}

/** When a write must be committed: before the call returns, or with the next commit (see group-commit.ts). */
export type Durability = 'now' | 'soon';

/** Which rows an export includes and in what order (the UI's current filter); no paging. */
export type ExportQuery = Omit<HistoryQuery, 'offset' | 'limit'>;

export interface History {
  /** Absolute path of the database file. */
  readonly file: string;
  /** Set when a damaged database file was set aside on open (for the UI and the log). */
  readonly warning: string | null;

  /** Stores a new record; throws on an invalid record or a duplicate id / external reference. */
  insert(record: ScanRecord): ScanRecord;
  /**
   * Stores many records in one transaction (a burst of dropped files): all or none; `jobId`: the scan job they belong
   * to, whose rows are committed with the next grouped commit (its walk finds them again after a crash). For the
   * pipeline's own records, typed as built: not validated again (`insert` validates).
   */
  insertMany(records: readonly ScanRecord[], jobId?: number): void;
  /** Scan jobs (history-jobs.ts). */
  readonly jobs: HistoryJobs;
  /** Files judged clean, by device and inode: the unchanged-file skip (unchanged-files.ts). */
  readonly unchanged: {
    find(dev: string, ino: string): UnchangedEntry | null;
    /**
     * The entries of these files, in their order, read in one snapshot: a read of its own costs each
     * lookup a WAL read lock (about 7 µs of a 10 µs lookup outside a transaction).
     */
    findMany(files: ReadonlyArray<{ dev: string; ino: string }>): Array<UnchangedEntry | null>;
    /** No file has an entry (a first scan): a job's walk need not look. */
    none(): boolean;
    /** Joins the open grouped commit (the one its verdict's row is written in): no commit of its own. */
    remember(entry: UnchangedEntry): void;
  };
  /** Recent files judged clean, and the quarantine as the signatures judged it: the recheck after a signature update (recheck-candidates.ts). */
  readonly recheck: { files: RecheckStore; quarantine: QuarantineJudgements };
  /** Changes some fields of a record; returns the updated record, or null if there is none with this id. */
  update(id: string, patch: ScanRecordPatch): ScanRecord | null;
  /**
   * Changes a record the caller holds (as it was last read or written) with a patch the
   * caller built itself (not from outside: it is not validated again), without reading the
   * row back. 'soon': committed with the next commit, within the commit window (a crash may
   * lose it). Returns the record as it is now, or null if there is none with this id. With compactOnVerdict,
   * a job's clean verdict moves into its compact store: the record returned has its compact id (`clean:N`).
   */
  apply(record: ScanRecord, patch: ScanRecordPatch, durability: Durability): ScanRecord | null;
  /** Commits the writes that wait ('soon') now. */
  flush(): void;
  /** Resolves once the writes made so far are committed (at the end of this turn of the event loop, shared by all who ask in it). */
  committed(): Promise<void>;
  /** Runs fn once the writes made so far are committed (at once when none wait; never if that commit fails). */
  afterCommit(fn: () => void): void;
  get(id: string): ScanRecord | null;
  getByReference(externalReferenceId: string): ScanRecord | null;
  /**
   * The latest completed scan with a verdict (safe or unsafe) of content with this
   * sha256, completed at or after `sinceIso`. Never a failed, skipped or
   * could-not-scan one, and never a record that itself reused a verdict (so a
   * verdict's age is counted from the real scan).
   */
  findReusable(sha256: string, sinceIso: string, options?: { backend?: string }): ScanRecord | null;
  /**
   * Files judged clean by the built-in engine only (basic checks), not taken up by
   * "Scan again with ClamAV" yet and not judged by ClamAV since (history-engine.ts).
   */
  readonly basicOnly: {
    count(): number;
    paths(limit: number): string[];
    /** The action took these paths up: they are not offered again. */
    markRescanRequested(paths: readonly string[], atIso: string): number;
  };
  /** Every non-terminal record (queued, uploading, processing), oldest first: crash recovery. */
  listPending(): ScanRecord[];
  /** Records with this disposition (e.g. quarantines to finish after a crash), oldest first; optionally of one content. */
  withDisposition(disposition: Disposition, options?: { sha256?: string }): ScanRecord[];
  /** Threats and allowed threats with a finding of this detection name, oldest first, at most `limit`. */
  withFindingName(name: string, limit: number): ScanRecord[];
  /**
   * A page of records matching the query, and how many match in all: exact, or for a
   * broad name search at least `total` (`totalIsLowerBound`). Throws on a malformed query.
   */
  query(query: HistoryQuery): Page<ScanRecord>;
  counts(): QueueCounts;
  /** Each change of the signatures in use the core noticed (signature-updates.ts). */
  readonly signatureUpdates: SignatureUpdates;
  /** The protection overview's counts over the user's last days (overview-queries.ts). */
  overview(window: OverviewWindow): ReturnType<typeof historyOverview>;
  /** Streams matching records as CSV; a path is written atomically, a stream is left open. */
  exportCsv(target: ExportTarget, query?: ExportQuery): Promise<{ rows: number }>;
  /** Streams matching records as a JSON array of ScanRecords. */
  exportJson(target: ExportTarget, query?: ExportQuery): Promise<{ rows: number }>;
  /**
   * Deletes terminal records queued before `iso`; returns their ids. Pending ones
   * are kept, and so are threats and records whose file is (or is being moved) in
   * quarantine: they are how the user reaches it.
   */
  deleteOlderThan(iso: string): string[];
  /** Keeps the newest `count` records of those deleteOlderThan may delete (a finished job counts as one) and deletes the older ones; returns their ids. */
  keepLast(count: number): string[];
  /** "Clear history": deletes every terminal record of its own, threats too, except those of files in quarantine; returns their ids. */
  clearFinished(): string[];
  /** Runs a function inside one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: () => T): T;
  /** Stops the checkpoint thread (checkpointThread) and waits for it, so that close() is the file's last connection. */
  stopCheckpoints(): Promise<void>;
  close(): void;
}

/** SQLite's page cache of the history's connection (KiB) unless HistoryOptions.cacheKib says otherwise. */
const DEFAULT_CACHE_KIB = 32 * 1024;

/** Opens (creating or migrating as needed) the history in `dataDir`. */
export function openHistory(dataDir: string, options: HistoryOptions = {}): History {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.resolve(dataDir, options.fileName ?? HISTORY_FILE_NAME);
  const { db, setAside } = openOrSetAside(file, (target) =>
    openSqliteFile(target, {
      synchronous: options.synchronous ?? 'FULL',
      busyTimeoutMs: options.busyTimeoutMs,
      pragmas: [
        `cache_size = -${options.cacheKib ?? DEFAULT_CACHE_KIB}`,
        ...(options.walAutocheckpointPages !== undefined ? [`wal_autocheckpoint = ${Math.max(1, Math.floor(options.walAutocheckpointPages))}`] : []),
      ],
      // A finished job's clean rows move to a compact table (job-files/): the pages they leave are given back
      // to the file system. An older history file keeps its setting (changing it needs a whole VACUUM) and reuses them.
      newFilePragmas: ['auto_vacuum = INCREMENTAL'],
      setup: (opened) => migrate(opened),
    }),
  );
  const warning = setAside
    ? `The history database could not be read (${setAside.reason}); it was set aside as ` +
      `${path.basename(setAside.file)} and a new, empty history was started.`
    : null;
  return createHistory(db, file, warning, options);
}

/** Wires the steps (history-reads.ts, history-writes.ts, history-export.ts) to one HistoryDb. */
function createHistory(db: DatabaseSync, file: string, warning: string | null, options: HistoryOptions): History {
  const lost = options.onLateCommitError ?? (() => {});
  // Either way the waiting files never hear of their verdict now (told once).
  const group = createGroupCommit(db, { windowMs: options.commitWindowMs ?? 50, onLateError: lost, onLostWrites: lost, onRollback: () => forgetJobFileIds(h) });
  const write = group.now;
  const wantNames = options.nameIndex ?? true;
  const applyHeld = options.compactOnVerdict === true ? applyOrFinishClean : applyPatch;
  const checkpointer = options.checkpointThread ? startWalCheckpointer(db, file, options.synchronous ?? 'FULL') : null;
  const h: HistoryDb = {
    db,
    prepare: statementCache(db),
    transaction: write,
    readTransaction: group.read,
    nameIndex: openNameIndex(db, wantNames),
    compactNames: openCompactNames(db, wantNames),
    flush: () => group.flush(),
    truncateWal: () => (checkpointer ? checkpointer.truncate() : db.exec('PRAGMA wal_checkpoint(TRUNCATE)')),
  };
  let open = true;
  return {
    file,
    warning,
    insert: (record) => insertRecords(h, [record])[0] as ScanRecord,
    // A job's rows join the open grouped commit: a crash before it commits leaves their files to the job's walk,
    // which finds them again at the restart (walk-job.ts). Files handed in on their own are committed at once.
    insertMany: (records, jobId) => void (jobId === undefined ? write : group.soon)(() => insertRecords(h, records, jobId ?? null, false)),
    jobs: historyJobs(h),
    unchanged: {
      find: (dev, ino) => findUnchanged(h, dev, ino),
      findMany: (files) => group.read(() => files.map(({ dev, ino }) => findUnchanged(h, dev, ino))),
      none: () => h.prepare('SELECT 1 FROM unchanged_files LIMIT 1').get() === undefined,
      remember: (entry) => group.soon(() => rememberUnchanged(h, entry)),
    },
    recheck: {
      // Sightings join the open grouped commit (after their verdicts': they are learnt from committed records);
      // a crash loses at most the last window's, whose files are then not rechecked but scanned as any other.
      files: { ...recheckStoreOn(db, write, group.read), remember: recheckStoreOn(db, group.soon).remember },
      quarantine: quarantineJudgementsOn(db, write),
    },
    update: (id, patch) => write(() => updateRecord(h, id, patch)),
    apply: (record, patch, durability) => (durability === 'now' ? write : group.soon)(() => applyHeld(h, record, patch)),
    flush: () => group.flush(),
    committed: () => group.committed(),
    afterCommit: (fn) => group.afterCommit(fn),
    get: (id) => recordById(h, id),
    getByReference: (ref) => recordByReference(h, ref),
    findReusable: (sha256, sinceIso, reuseOptions = {}) => findReusable(h, sha256, sinceIso, reuseOptions),
    basicOnly: {
      count: () => countSafeByBuiltin(h),
      paths: (limit) => safeByBuiltinPaths(h, limit),
      markRescanRequested: (paths, atIso) => markRescanRequested(h, paths, atIso),
    },
    listPending: () => listPending(h),
    withDisposition: (disposition, dispositionOptions = {}) => withDisposition(h, disposition, dispositionOptions),
    withFindingName: (name, limit) => withFindingName(h, name, limit),
    // What is shown or exported is on disk: the writes waiting for their grouped commit go first.
    query: (query) => (group.flush(), queryPage(h, query)),
    counts: () => counts(h),
    signatureUpdates: signatureUpdatesOn(h),
    overview: (window) => (group.flush(), historyOverview(h, window)),
    exportCsv: (target, query = {}) => exportWith(h, csvChunks, target, query),
    exportJson: (target, query = {}) => exportWith(h, jsonChunks, target, query),
    deleteOlderThan: (iso) => {
      write(() => forgetUnchangedBefore(h, Date.parse(iso)));
      return deleteOlderThan(h, iso);
    },
    keepLast: (count) => keepLast(h, count),
    clearFinished: () => {
      write(() => forgetUnchanged(h));
      return clearFinished(h);
    },
    transaction: write,
    stopCheckpoints: async () => checkpointer?.close(),
    close() {
      if (!open) return;
      open = false;
      void checkpointer?.close();
      try {
        group.flush();
        db.exec('PRAGMA optimize');
      } finally {
        db.close();
      }
    },
  };
}

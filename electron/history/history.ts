// Scan history: one SQLite row per scan in `<dataDir>/history.sqlite`, with
// the queries the UI, the CLI and crash recovery need. Synchronous (node:sqlite
// DatabaseSync); every statement is prepared once and reused.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { Disposition, HistoryQuery, Page, QueueCounts, ScanRecord } from '../../shared/scans/record.ts';
import { openOrSetAside, openSqliteFile } from '../sqlite/open-sqlite.ts';
import { createTransactions, statementCache } from '../sqlite/statements.ts';
import { csvChunks, jsonChunks, writeChunks, type ExportTarget } from './export-format.ts';
import { migrate } from './migrations.ts';
import { openNameIndex } from './name-index.ts';
import { buildFilter, nameMatchQuery, parseHistoryQuery, searchCountCap, usesNameIndex, type ParsedHistoryQuery, type SqlFilter } from './query-filter.ts';
import {
  fieldsToColumns,
  insertSchema,
  patchSchema,
  RECORD_COLUMNS,
  recordToRow,
  rowToRecord,
  type RecordColumn,
  type ScanRecordPatch,
} from './row-mapping.ts';

export type { ScanRecordPatch } from './row-mapping.ts';
export type { ExportTarget } from './export-format.ts';

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
}

/** Which rows an export includes and in what order (the UI's current filter); no paging. */
export type ExportQuery = Omit<HistoryQuery, 'offset' | 'limit'>;

export interface History {
  /** Absolute path of the database file. */
  readonly file: string;
  /** Set when a damaged database file was set aside on open (for the UI and the log). */
  readonly warning: string | null;

  /** Stores a new record; throws on an invalid record or a duplicate id / external reference. */
  insert(record: ScanRecord): ScanRecord;
  /** Stores many records in one transaction (a burst of dropped files): all or none. */
  insertMany(records: readonly ScanRecord[]): void;
  /** Changes some fields of a record; returns the updated record, or null if there is none with this id. */
  update(id: string, patch: ScanRecordPatch): ScanRecord | null;
  get(id: string): ScanRecord | null;
  getByReference(externalReferenceId: string): ScanRecord | null;
  /**
   * The latest completed scan with a verdict (safe or unsafe) of content with this
   * sha256, completed at or after `sinceIso`. Never a failed, skipped or
   * could-not-scan one, and never a record that itself reused a verdict (so a
   * verdict's age is counted from the real scan).
   */
  findReusable(sha256: string, sinceIso: string, options?: { backend?: string }): ScanRecord | null;
  /** Every non-terminal record (queued, uploading, processing), oldest first: crash recovery. */
  listPending(): ScanRecord[];
  /** Records with this disposition (e.g. quarantines to finish after a crash), oldest first; optionally of one content. */
  withDisposition(disposition: Disposition, options?: { sha256?: string }): ScanRecord[];
  /**
   * A page of records matching the query, and how many match in all: exact, or for a
   * broad name search at least `total` (`totalIsLowerBound`). Throws on a malformed query.
   */
  query(query: HistoryQuery): Page<ScanRecord>;
  counts(): QueueCounts;
  /** Streams matching records as CSV; a path is written atomically, a stream is left open. */
  exportCsv(target: ExportTarget, query?: ExportQuery): Promise<{ rows: number }>;
  /** Streams matching records as a JSON array of ScanRecords. */
  exportJson(target: ExportTarget, query?: ExportQuery): Promise<{ rows: number }>;
  /**
   * Deletes terminal records queued before `iso`; returns their ids. Pending ones
   * are kept, and so are records whose file is (or is being moved) in quarantine:
   * they are how the user reaches it.
   */
  deleteOlderThan(iso: string): string[];
  /** Keeps the newest `count` terminal records (of those deleteOlderThan may delete) and deletes the older ones; returns their ids. */
  keepLast(count: number): string[];
  /** Runs a function inside one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: () => T): T;
  close(): void;
}

const SELECT_COLUMNS = RECORD_COLUMNS.join(', ');
const EXPORT_BATCH = 500;
/** Above this many name matches a search walks an index instead (see useNameIndex; measured in test/bench/history.ts). */
const BROAD_SEARCH_ROWS = 2000;

/** Opens (creating or migrating as needed) the history in `dataDir`. */
export function openHistory(dataDir: string, options: HistoryOptions = {}): History {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.resolve(dataDir, options.fileName ?? HISTORY_FILE_NAME);
  const { db, setAside } = openOrSetAside(file, (target) =>
    openSqliteFile(target, {
      synchronous: options.synchronous ?? 'FULL',
      busyTimeoutMs: options.busyTimeoutMs,
      pragmas: ['cache_size = -32768'],
      setup: (opened) => migrate(opened),
    }),
  );
  const warning = setAside
    ? `The history database could not be read (${setAside.reason}); it was set aside as ` +
      `${path.basename(setAside.file)} and a new, empty history was started.`
    : null;
  return createHistory(db, file, warning, options);
}

function createHistory(db: DatabaseSync, file: string, warning: string | null, options: HistoryOptions): History {
  const nameIndex = openNameIndex(db, options.nameIndex ?? true);
  const prepare = statementCache(db);
  const { write: transaction, read: readTransaction } = createTransactions(db);
  const one = (sql: string, ...params: SQLInputValue[]): ScanRecord | null => {
    const row = prepare(sql).get(...params);
    return row ? rowToRecord(row) : null;
  };
  const many = (sql: string, ...params: SQLInputValue[]): ScanRecord[] => prepare(sql).all(...params).map(rowToRecord);

  const insertSql = `INSERT INTO scans (${SELECT_COLUMNS}) VALUES (${RECORD_COLUMNS.map(() => '?').join(', ')})`;
  /** Inserts one row and its name index entry; the caller holds a transaction. */
  const insertRow = (record: ScanRecord): ScanRecord => {
    const valid = parseOrExplain(insertSchema, record, 'scan record');
    const row = recordToRow(valid);
    const { lastInsertRowid } = prepare(insertSql).run(...RECORD_COLUMNS.map((column) => row[column] ?? null));
    nameIndex.add(lastInsertRowid, valid.fileName);
    return valid;
  };
  /** Deletes rows chosen by a `SELECT seq …` and unindexes their names; returns their ids. */
  const deleteWhere = (selectSeqs: string, ...params: SQLInputValue[]): string[] =>
    transaction(() => {
      const rows = prepare(`DELETE FROM scans WHERE seq IN (${selectSeqs}) RETURNING seq, id, file_name`).all(...params) as Array<{
        seq: number;
        id: string;
        file_name: string;
      }>;
      for (const row of rows) nameIndex.remove(row.seq, row.file_name);
      return rows.map((row) => row.id);
    });

  /** Matching records in order, read in batches by position (no statement stays open across awaits). */
  function* iterate(query: ExportQuery): Generator<ScanRecord> {
    const parsed = parseHistoryQuery({ ...query, offset: 0, limit: 1 });
    const filter = buildFilter(parsed);
    const after = parsed.order === 'oldest' ? '>' : '<';
    const firstSql = `SELECT ${SELECT_COLUMNS}, seq FROM scans ${filter.where} ${filter.orderBy} LIMIT ?`;
    const nextSql = `SELECT ${SELECT_COLUMNS}, seq FROM scans WHERE ${[...filter.conditions, `(queued_at, seq) ${after} (?, ?)`].join(' AND ')} ${filter.orderBy} LIMIT ?`;
    let rows = prepare(firstSql).all(...filter.params, EXPORT_BATCH);
    while (rows.length > 0) {
      for (const row of rows) yield rowToRecord(row);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1] as { queued_at: string; seq: number };
      rows = prepare(nextSql).all(...filter.params, last.queued_at, last.seq, EXPORT_BATCH);
    }
  }

  const exportWith = async (render: (records: Iterable<ScanRecord>) => Iterable<string>, target: ExportTarget, query: ExportQuery) => {
    let rows = 0;
    const counted = function* () {
      for (const record of iterate(query)) {
        rows += 1;
        yield record;
      }
    };
    await writeChunks(target, render(counted()));
    return { rows };
  };

  /** Few name matches: start from them. Many: walking an index in page order and testing each name beats sorting them all. */
  const useNameIndex = (search: string | undefined): boolean =>
    nameIndex.enabled && search !== undefined && usesNameIndex(search) && nameIndex.count(nameMatchQuery(search), BROAD_SEARCH_ROWS + 1) <= BROAD_SEARCH_ROWS;
  /**
   * The total for a full page. Exact, except for a search: it counts up to
   * searchCountCap() and says when more match, because a broad search tests every
   * name (10–17 ms on 100,000 rows). Capped whichever plan runs, so the answer
   * never depends on the plan.
   */
  const countMatches = (filter: SqlFilter, parsed: ParsedHistoryQuery): Pick<Page<ScanRecord>, 'total' | 'totalIsLowerBound'> => {
    if ((parsed.search?.trim() ?? '') === '') {
      return { total: Number((prepare(`SELECT count(*) AS n FROM scans ${filter.where}`).get(...filter.params) as { n: number }).n) };
    }
    const cap = searchCountCap(parsed.offset, parsed.limit);
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM scans ${filter.where} LIMIT ?)`;
    const counted = Number((prepare(sql).get(...filter.params, cap + 1) as { n: number }).n);
    return counted > cap ? { total: cap, totalIsLowerBound: true } : { total: counted };
  };
  const get = (id: string) => one(`SELECT ${SELECT_COLUMNS} FROM scans WHERE id = ?`, id);
  /** Rows retention may delete: finished, and not the record of a file in quarantine. */
  const terminal = `status IN ('completed', 'failed', 'skipped') AND (disposition IS NULL OR disposition NOT IN ('quarantine_pending', 'quarantined'))`;
  let open = true;

  return {
    file,
    warning,
    insert: (record) => transaction(() => insertRow(record)),
    insertMany: (records) => transaction(() => records.forEach((record) => insertRow(record))),
    update(id, patch) {
      const valid = parseOrExplain(patchSchema, patch, 'scan record change');
      const columns = fieldsToColumns(valid);
      const names = Object.keys(columns) as RecordColumn[];
      if (names.length === 0) return get(id);
      const sql = `UPDATE scans SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ? RETURNING seq, ${SELECT_COLUMNS}`;
      const run = () => prepare(sql).get(...names.map((name) => columns[name] ?? null), id);
      if (columns.file_name === undefined) {
        const row = run();
        return row ? rowToRecord(row) : null;
      }
      // A renamed record moves in the name index too.
      return transaction(() => {
        const before = prepare('SELECT seq, file_name FROM scans WHERE id = ?').get(id) as { seq: number; file_name: string } | undefined;
        const row = run();
        if (!before || !row) return null;
        nameIndex.remove(before.seq, before.file_name);
        nameIndex.add(before.seq, row.file_name as string);
        return rowToRecord(row);
      });
    },
    get,
    getByReference: (ref) => one(`SELECT ${SELECT_COLUMNS} FROM scans WHERE external_reference_id = ?`, ref),
    findReusable(sha256, sinceIso, options = {}) {
      const backend = options.backend === undefined ? '' : 'AND backend = ?';
      const params: SQLInputValue[] = [sha256.toLowerCase(), sinceIso];
      if (options.backend !== undefined) params.push(options.backend);
      return one(
        `SELECT ${SELECT_COLUMNS} FROM scans
         WHERE sha256 = ? AND completed_at >= ? AND status = 'completed' AND safe IS NOT NULL
           AND reused_from_id IS NULL ${backend}
         ORDER BY completed_at DESC, seq DESC LIMIT 1`,
        ...params,
      );
    },
    listPending: () => many(`SELECT ${SELECT_COLUMNS} FROM scans WHERE status IN ('queued', 'uploading', 'processing') ORDER BY queued_at, seq`),
    withDisposition(disposition, options = {}) {
      if (options.sha256 === undefined) return many(`SELECT ${SELECT_COLUMNS} FROM scans WHERE disposition = ? ORDER BY queued_at, seq`, disposition);
      return many(`SELECT ${SELECT_COLUMNS} FROM scans WHERE sha256 = ? AND disposition = ? ORDER BY queued_at, seq`, options.sha256.toLowerCase(), disposition);
    },
    query(query) {
      const parsed: ParsedHistoryQuery = parseHistoryQuery(query);
      return readTransaction(() => {
        const filter = buildFilter(parsed, { useNameIndex: useNameIndex(parsed.search) });
        const items = many(`SELECT ${SELECT_COLUMNS} FROM scans ${filter.where} ${filter.orderBy} LIMIT ? OFFSET ?`, ...filter.params, parsed.limit, parsed.offset);
        // A page that stops short is the end of the list: it gives the total without counting.
        if (items.length < parsed.limit && (items.length > 0 || parsed.offset === 0)) return { items, total: parsed.offset + items.length };
        return { items, ...countMatches(filter, parsed) };
      });
    },
    counts() {
      const counts: QueueCounts = { queued: 0, uploading: 0, processing: 0 };
      const rows = prepare(`SELECT status, count(*) AS n FROM scans WHERE status IN ('queued', 'uploading', 'processing') GROUP BY status`).all() as Array<{
        status: keyof QueueCounts;
        n: number;
      }>;
      for (const row of rows) counts[row.status] = Number(row.n);
      return counts;
    },
    exportCsv: (target, query = {}) => exportWith(csvChunks, target, query),
    exportJson: (target, query = {}) => exportWith(jsonChunks, target, query),
    deleteOlderThan: (iso) => deleteWhere(`SELECT seq FROM scans WHERE queued_at < ? AND ${terminal}`, iso),
    keepLast(count) {
      if (!Number.isInteger(count) || count < 0) throw new RangeError('keepLast needs a whole number of records (0 or more).');
      return deleteWhere(`SELECT seq FROM scans WHERE ${terminal} ORDER BY queued_at DESC, seq DESC LIMIT -1 OFFSET ?`, count);
    },
    transaction,
    close() {
      if (!open) return;
      open = false;
      try {
        db.exec('PRAGMA optimize');
      } finally {
        db.close();
      }
    },
  };
}

function parseOrExplain<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new TypeError(`Invalid ${what}: ${z.prettifyError(result.error)}`);
  return result.data;
}

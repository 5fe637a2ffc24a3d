// The history's state, shared by its steps: the database, its statement cache,
// transactions and the name index. One value per open history.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import type { ScanRecord } from '../../shared/scans/record.ts';
import type { statementCache } from '../sqlite/statements.ts';
import type { CompactNames } from './job-files/compact-names.ts';
import type { NameIndex } from './name-index.ts';
import { RECORD_COLUMNS, rowToRecord } from './row-mapping.ts';

export interface HistoryDb {
  db: DatabaseSync;
  prepare: ReturnType<typeof statementCache>;
  /** BEGIN IMMEDIATE … COMMIT (nesting joins the outer one). */
  transaction: <T>(fn: () => T) => T;
  /** A consistent read of several statements. */
  readTransaction: <T>(fn: () => T) => T;
  nameIndex: NameIndex;
  /** The trigram index of the compact store's names (job-files/compact-names.ts). */
  compactNames: CompactNames;
  /** Commits the writes that wait (a PRAGMA such as wal_checkpoint must run outside a transaction). */
  flush: () => void;
  /** Gives the WAL file's space back: a TRUNCATE checkpoint here, or with a checkpoint thread (sqlite/wal-checkpointer.ts) a checkpoint there and a cut at the next commit. */
  truncateWal: () => void;
}

/** What a read selects: the record's columns and the scan job it belongs to (written on insert only). */
export const SELECT_COLUMNS = `${RECORD_COLUMNS.join(', ')}, job_id`;

export const one = (h: HistoryDb, sql: string, ...params: SQLInputValue[]): ScanRecord | null => {
  const row = h.prepare(sql).get(...params);
  return row ? rowToRecord(row) : null;
};

export const many = (h: HistoryDb, sql: string, ...params: SQLInputValue[]): ScanRecord[] => h.prepare(sql).all(...params).map(rowToRecord);

export function parseOrExplain<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new TypeError(`Invalid ${what}: ${z.prettifyError(result.error)}`);
  return result.data;
}

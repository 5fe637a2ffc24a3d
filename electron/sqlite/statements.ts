// What the core's stores (history, quarantine) do with an open database: each
// SQL text prepared once and reused, and transactions that nest (an inner one
// joins the outer, so a helper may run alone or inside a caller's batch).
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** The prepared statement for this SQL text, prepared on first use. */
export function statementCache(db: DatabaseSync): (sql: string) => StatementSync {
  const statements = new Map<string, StatementSync>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

export interface Transactions {
  /** BEGIN IMMEDIATE … COMMIT, ROLLBACK when fn throws. */
  write<T>(fn: () => T): T;
  /** One snapshot for several reads (a page and its total agree while another process writes). */
  read<T>(fn: () => T): T;
}

export function createTransactions(db: DatabaseSync): Transactions {
  let inTransaction = false;
  return {
    write(fn) {
      if (inTransaction) return fn();
      db.exec('BEGIN IMMEDIATE');
      inTransaction = true;
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      } finally {
        inTransaction = false;
      }
    },
    read(fn) {
      if (inTransaction) return fn();
      db.exec('BEGIN');
      inTransaction = true;
      try {
        return fn();
      } finally {
        inTransaction = false;
        db.exec('COMMIT');
      }
    },
  };
}

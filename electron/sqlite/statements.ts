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
  // Prepared once: db.exec() parses its SQL text again on every call, twice per write.
  const begin = db.prepare('BEGIN');
  const beginImmediate = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let inTransaction = false;
  return {
    write(fn) {
      if (inTransaction) return fn();
      beginImmediate.run();
      inTransaction = true;
      try {
        const result = fn();
        commit.run();
        return result;
      } catch (error) {
        rollback.run();
        throw error;
      } finally {
        inTransaction = false;
      }
    },
    read(fn) {
      if (inTransaction) return fn();
      begin.run();
      inTransaction = true;
      try {
        return fn();
      } finally {
        inTransaction = false;
        commit.run();
      }
    },
  };
}

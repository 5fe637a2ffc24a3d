// Writes that may wait for the next commit. They join one open transaction,
// committed as soon as anyone is to learn of them, and by every write that must
// be durable on its own (which commits what waits along with it). A small sync
// scan's row, which nobody learns of before its verdict, so commits together with
// that verdict: one commit per scan instead of two.
import type { DatabaseSync } from 'node:sqlite';

export class PendingWrites {
  readonly #db: DatabaseSync;
  readonly #begin;
  readonly #commit;
  readonly #rollback;
  /** This object opened the transaction that is open now. */
  #open = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
  }

  /** Writes wait for a commit. */
  get waiting(): boolean {
    return this.#open;
  }

  /** Runs `write` in the open transaction (opening one): what it writes is committed with the next commit(). */
  add<T>(write: () => T): T {
    if (!this.#db.isTransaction) {
      this.#begin.run();
      this.#open = true;
    }
    return write();
  }

  /** Commits what waits, now. Throws when it cannot: nobody may be told of those writes. */
  commit(): void {
    if (!this.#open) return;
    this.#open = false;
    // A statement that failed badly (disk full, I/O error) makes SQLite roll the transaction back itself.
    if (!this.#db.isTransaction) throw new Error('writes waiting for a commit were rolled back by a failed statement');
    try {
      this.#commit.run();
    } catch (error) {
      if (this.#db.isTransaction) this.#rollback.run();
      throw error;
    }
  }
}

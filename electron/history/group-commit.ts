// Group commit for the history: a write that may wait ("soon") joins one open
// transaction, committed with the next write that must be durable at once
// ("now"), after a short window at the latest, or at flush (idle, close). A
// commit costs more than the writes it carries (WAL frames, a checkpoint now
// and then), and a batch makes two or three per file; grouped, they share one.
// A crash loses only the waiting writes: recovery redoes them (a row still
// `uploading` is looked up by its reference). Each write is all or none (a
// savepoint), and reads on this connection see the waiting writes.
import type { DatabaseSync } from 'node:sqlite';

export interface GroupCommit {
  /** BEGIN IMMEDIATE … COMMIT around fn (ROLLBACK on throw), with any waiting writes; nesting joins the outer one. */
  now<T>(fn: () => T): T;
  /** Runs fn in the open group (all of fn or none of it); committed within `windowMs`, or earlier. */
  soon<T>(fn: () => T): T;
  /** One snapshot for several reads. */
  read<T>(fn: () => T): T;
  /** Commits the waiting writes now (nothing waiting: nothing happens). */
  flush(): void;
  /**
   * Resolves once the writes made so far are committed: at the end of this turn of the event
   * loop, so the writes of everything that asks in the same turn share one commit.
   */
  committed(): Promise<void>;
  /**
   * Runs fn right after the writes made so far are committed (at once when none wait), in the order
   * asked; never when their commit fails (recovery redoes those writes). What a subscriber is told
   * about a write that waits goes out this way: nothing is shown before it is on disk.
   */
  afterCommit(fn: () => void): void;
}

export interface GroupCommitOptions {
  /** Longest time a write waits for its commit. */
  windowMs: number;
  /** A commit that failed when the window ended (nobody is waiting to hear it): the waiting writes are lost. */
  onLateError: (error: unknown) => void;
  /** A commit that failed, however it was asked for, while writes waited to be told (afterCommit): they never will be. */
  onLostWrites?: (error: unknown) => void;
  /** After any rollback (a write's, or the group's): what it wrote, and any id it took, is gone. */
  onRollback?: () => void;
}

export function createGroupCommit(db: DatabaseSync, options: GroupCommitOptions): GroupCommit {
  /** Inside a now/soon/read function: a nested one joins it. */
  let depth = 0;
  /** A group transaction is open (BEGIN IMMEDIATE done, COMMIT to come). */
  let open = false;
  let timer: NodeJS.Timeout | null = null;
  /** Whoever waits in committed(), told by the next commit (or its failure). */
  let waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  let immediate: NodeJS.Immediate | null = null;
  /** Told once the open group commits (afterCommit); dropped if it fails. */
  let followers: Array<() => void> = [];
  /** The last failure already told to onLostWrites (not told again as a late one). */
  let reported: unknown = null;

  const settle = (error?: unknown) => {
    const told = waiters;
    waiters = [];
    for (const waiter of told) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  };

  const within = <T>(fn: () => T): T => {
    depth++;
    try {
      return fn();
    } finally {
      depth--;
    }
  };

  // Prepared once: exec() parses its text again on every call, and every grouped write makes two.
  const savepoint = db.prepare('SAVEPOINT grouped');
  const release = db.prepare('RELEASE grouped');
  const inSavepoint = <T>(fn: () => T): T =>
    within(() => {
      savepoint.run();
      try {
        const result = fn();
        release.run();
        return result;
      } catch (error) {
        db.exec('ROLLBACK TO grouped');
        release.run();
        options.onRollback?.();
        throw error;
      }
    });

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (immediate) clearImmediate(immediate);
    immediate = null;
    if (!open) return settle();
    open = false;
    const told = followers;
    followers = [];
    try {
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      options.onRollback?.();
      settle(error);
      // Whoever waited to be told of these writes never will be: say so, whoever asked for this commit.
      if (told.length > 0 && options.onLostWrites) {
        reported = error;
        options.onLostWrites(error);
      }
      throw error;
    }
    for (const fn of told) {
      try {
        fn();
      } catch (error) {
        // Reported as any uncaught error would be; the commit stands and the others are told.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    settle();
  };

  return {
    now(fn) {
      if (depth > 0) return fn();
      if (open) {
        const result = inSavepoint(fn);
        flush();
        return result;
      }
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = within(fn);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        options.onRollback?.();
        throw error;
      }
    },
    soon(fn) {
      if (depth > 0) return fn();
      if (!open) {
        db.exec('BEGIN IMMEDIATE');
        open = true;
        timer = setTimeout(() => {
          timer = null;
          try {
            flush();
          } catch (error) {
            if (error !== reported) options.onLateError(error);
          }
        }, options.windowMs);
      }
      return inSavepoint(fn);
    },
    read(fn) {
      if (depth > 0 || open) return within(fn);
      db.exec('BEGIN');
      try {
        return within(fn);
      } finally {
        db.exec('COMMIT');
      }
    },
    flush,
    committed() {
      if (!open) return Promise.resolve();
      immediate ??= setImmediate(() => {
        immediate = null;
        try {
          flush();
        } catch {
          // The waiters were told (rejected).
        }
      });
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    afterCommit(fn) {
      if (open) followers.push(fn);
      else fn();
    },
  };
}

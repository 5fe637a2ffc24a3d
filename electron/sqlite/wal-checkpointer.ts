// WAL checkpoints on a thread of their own (issue 26 §5). SQLite's automatic checkpoint runs inside
// the COMMIT that takes the WAL past 1,000 pages, on the committing thread: on a large history
// nearly every batch of rows did, and copying the pages into the database file (and syncing it)
// was most of a commit's time on the core's thread, which answers the window. As SQLite's own
// documentation suggests, the writing connection's automatic checkpoints are turned off and a
// second connection on a worker thread checkpoints (PASSIVE: it never blocks the writer) as the
// WAL grows. Readers and writers go on while it copies; what a crash keeps is unchanged. Should the
// thread fail, the writing connection checkpoints automatically again.
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';

/** SQLite's own automatic checkpoint (WAL pages), which the writer goes back to should the thread fail. */
export const WAL_CHECKPOINT_PAGES = 1000;
/**
 * The WAL file's size left on disk. A file over it is cut by the thread once a PASSIVE checkpoint has
 * copied every frame and the WAL is idle (cutIfDone below). The writer never cuts it (journal_size_limit -1):
 * it starts the WAL again from its beginning and writes over the old frames. Should the thread fail, the
 * writer cuts it again, as SQLite does with this limit.
 */
export const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;
/** How often the thread looks at the WAL while it grows; idle, it looks less often, up to IDLE_MS. */
const BUSY_MS = 100;
const IDLE_MS = 2000;

// CommonJS text for an `eval` worker: no file of its own for the app's bundle to ship.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file, { timeout: 0 });
db.exec('PRAGMA synchronous = ' + workerData.synchronous);
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
let wait = workerData.busyMs;
let timer = null;
let lastLog = -1;
// The WAL's pages and those copied; -1 when the database was busy (a writer's lock): tried again later.
const checkpoint = () => {
  try {
    const row = passive.get();
    return { log: Number(row.log), copied: Number(row.checkpointed) };
  } catch {
    return { log: -1, copied: -1 };
  }
};
// Idle (the WAL as it was at the last look), every frame copied and the file over its limit: cut it here,
// never in a commit of the core's (cutting a WAL of 70 MB took that commit 40 ms, 125–400 ms on a busy
// machine: bench 17, right after its seed). A TRUNCATE then has nothing to copy (while one copied and synced,
// the core's next write had waited for it: 161 ms). Not while the WAL grows: a TRUNCATE holds the writer's
// lock, and a commit that meets it sleeps in SQLite's busy handler. Busy (a writer or a reader is at it):
// tried again at a later idle look.
const cutIfDone = ({ log, copied }) => {
  if (log <= 0 || copied !== log || log !== lastLog) return;
  try {
    if (statSync(workerData.file + '-wal').size > workerData.limitBytes) truncate.get();
  } catch {
    // Busy, or the WAL is gone: nothing to cut now.
  }
};
const tick = () => {
  const checked = checkpoint();
  cutIfDone(checked);
  // The WAL's length changes as it grows (or starts again from its beginning): look again soon.
  wait = checked.log !== lastLog ? workerData.busyMs : Math.min(workerData.idleMs, wait * 2);
  lastLog = checked.log;
  timer = setTimeout(tick, wait);
  return checked;
};
parentPort.on('message', (message) => {
  clearTimeout(timer);
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const checked = tick();
  if (message === 'now') parentPort.postMessage({ type: 'checked', ...checked });
});
timer = setTimeout(tick, wait);
`;

export interface WalCheckpointer {
  /** Checkpoints on the thread now, and cuts the WAL file there once all of it is copied (else at a later look, once no reader holds it). */
  truncate(): void;
  /** Checkpoints now on the thread and resolves with the WAL's pages and those copied (tests; -1 when it could not). */
  checkpointNow(): Promise<{ log: number; copied: number }>;
  /** Stops the thread; its connection closes before the writer's may (the writer's close then checkpoints the rest). */
  close(): Promise<void>;
}

/**
 * Turns off `db`'s automatic checkpoints and checkpoints `file` (the same database) on a worker thread.
 * The thread never keeps the process alive (unref'd).
 */
export function startWalCheckpointer(
  db: DatabaseSync,
  file: string,
  synchronous: 'FULL' | 'NORMAL',
  /** How often the thread looks at the WAL while it grows, and at most when idle (tests: only checkpointNow). */
  looks: { busyMs: number; idleMs: number } = { busyMs: BUSY_MS, idleMs: IDLE_MS },
): WalCheckpointer {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec('PRAGMA journal_size_limit = -1');
  let closing = false;
  let gone = false;
  const worker = new Worker(THREAD, { eval: true, name: 'verdict-wal-checkpoint', workerData: { file, synchronous, limitBytes: WAL_SIZE_LIMIT_BYTES, ...looks } });
  worker.unref();
  const waiting: Array<(value: { log: number; copied: number }) => void> = [];
  const fallBack = () => {
    gone = true;
    for (const resolve of waiting.splice(0)) resolve({ log: -1, copied: -1 });
    if (closing || !db.isOpen) return;
    // No thread checkpoints or cuts any more: the writer does both again, as SQLite does by default.
    db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  worker.on('message', (message: { type: string; log?: number; copied?: number }) => {
    if (message.type === 'checked') waiting.shift()?.({ log: message.log ?? -1, copied: message.copied ?? -1 });
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    truncate: () => {
      if (gone) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      else worker.postMessage('checkpoint');
    },
    checkpointNow: () =>
      new Promise((resolve) => {
        if (gone) return resolve({ log: -1, copied: -1 });
        waiting.push(resolve);
        worker.postMessage('now');
      }),
    async close() {
      if (closing) return exited;
      closing = true;
      // Held open until the thread has closed its connection (a CLI's last await is this close).
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}

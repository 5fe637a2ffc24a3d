// The real service thread, plus a way for the soak run to make it die: when a
// file `crash-now` appears next to its data dir, the thread throws (once per
// file), as a thread does that meets a bug. The supervisor in
// start-in-thread.ts then restarts it on the same port. A file `gc-now` makes it
// collect its garbage (when run under --expose-gc).
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workerData } from 'node:worker_threads';

await import('../../electron/local-service/thread/service-thread.ts');

const folder = dirname((workerData as { options: { dataDir: string } }).options.dataDir);
const marker = join(folder, 'crash-now');
// Under `node --expose-gc`, the soak asks for a full collection before it samples (live memory, not garbage).
const gcMarker = join(folder, 'gc-now');
const collect = (globalThis as { gc?: () => void }).gc;
const poll = setInterval(() => {
  if (collect && existsSync(gcMarker)) {
    rmSync(gcMarker, { force: true });
    collect();
  }
  if (!existsSync(marker)) return;
  rmSync(marker);
  clearInterval(poll);
  throw new Error('soak: the service thread was made to crash');
}, 100);
poll.unref();

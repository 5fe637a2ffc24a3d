// The local service's thread, started before the app's modules load (`verdict scan`): the thread
// loads its own modules on the other core while the main thread loads the app's, instead of after
// (a rescan of an unchanged tree is mostly this start). start-in-thread.ts takes it and sends it its
// options as its first message. Light on purpose: it imports only node:worker_threads.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { LogLevel, ThreadServiceOptions } from './thread-protocol.ts';

/**
 * The worker's entry: service-thread.ts next to this file when run from source; in a
 * bundle, `service-thread.js` next to the bundle's chunk (the build must emit
 * electron/local-service/thread/service-thread.ts as an entry of its own).
 */
export const SERVICE_THREAD_URL = new URL(import.meta.url.endsWith('.ts') ? './service-thread.ts' : './service-thread.js', import.meta.url);

/**
 * A small young generation: the service's garbage (request and scan objects) is collected sooner instead of V8 growing
 * the heap and keeping the space. 10,000 small files dropped at once: peak RSS growth 332–340 → 224–249 MiB, same time.
 */
export const SERVICE_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 6 };
export const SERVICE_THREAD_NAME = 'verdict-local-service';

/** workerData of a thread started early: it waits for a `ThreadStart` message. */
export const WAIT_FOR_START = 'wait-for-start';

/** The first message to a thread started early. */
export interface ThreadStart {
  type: 'start';
  options: ThreadServiceOptions;
  levels: readonly LogLevel[];
}

let warm: Worker | null = null;

/** Starts the service thread now, unreferenced (a run that never takes it is not kept alive by it). */
export function warmServiceThread(): void {
  if (warm) return;
  const worker = new Worker(SERVICE_THREAD_URL, { workerData: WAIT_FOR_START, name: SERVICE_THREAD_NAME, resourceLimits: SERVICE_THREAD_LIMITS });
  worker.unref();
  // Failing before it is taken: it is not taken; the service starts a thread of its own as before.
  worker.on('error', () => {});
  worker.once('exit', () => {
    if (warm === worker) warm = null;
  });
  warm = worker;
}

/** The early thread, once, when it runs the same entry with the same limits and still runs; else null. */
export function takeWarmThread(entry: URL, resourceLimits: ResourceLimits | undefined): Worker | null {
  const worker = warm;
  if (!worker || entry.href !== SERVICE_THREAD_URL.href || resourceLimits !== SERVICE_THREAD_LIMITS || worker.threadId === -1) return null;
  warm = null;
  worker.ref();
  return worker;
}

// Fingerprints files on a worker thread (or several), so hashing and reading
// (about 0.1 ms of CPU per small file, a second or more for a 100 MB one) stay off
// the thread that serves the window. The jobs asked for in one turn go out in one
// message, and each thread answers the jobs of a message in one message.
// Should a thread be unavailable (a build without its entry) or fail, the files
// are fingerprinted on the calling thread instead: slower, never missing.
import { Worker } from 'node:worker_threads';
import { fingerprintFile, FingerprintError, type DigestName, type FingerprintErrorCode, type FingerprintErrorDetail } from './fingerprint.ts';
import type { PathStat, SyncFingerprint, SyncFingerprintOptions } from './fingerprint-sync.ts';

export interface FingerprintJob {
  id: number;
  /** Structured clone keeps a lone surrogate, so a name's escaped bytes (file-names/fs-path.ts) reach the thread as they are. */
  path: string;
  options: SyncFingerprintOptions;
}

export type FingerprintReply =
  | { id: number; ok: true; result: SyncFingerprint }
  | { id: number; ok: false; error: { message: string; code: FingerprintErrorCode | null; detail: FingerprintErrorDetail | null } };

export interface PoolOptions {
  /**
   * Threads (default 1); each reads one file at a time. One hashes sha256 at over 1 GB/s, more than the
   * service and clamd take in; each further thread costs its start-up (about 80 ms of CPU from source) for little.
   */
  threads?: number;
  keepContentUpTo?: number;
  digests?: readonly DigestName[];
  maxSize?: number;
  /** Told once when the threads cannot be used and files are fingerprinted on this thread instead. */
  onFallback?: (error: Error) => void;
  /** The thread's entry module (default FINGERPRINT_THREAD_URL). */
  threadEntry?: URL;
}

export interface FingerprintPool {
  /** Rejects with the signal's reason when aborted (a thread still reading finishes the file, unheard). */
  fingerprint(path: string, signal: AbortSignal): Promise<SyncFingerprint>;
  close(): Promise<void>;
}

/** fingerprint-thread.ts next to this file from source; in a bundle `fingerprint-thread.js` next to the chunk (its own build entry). */
export const FINGERPRINT_THREAD_URL = new URL(import.meta.url.endsWith('.ts') ? './fingerprint-thread.ts' : './fingerprint-thread.js', import.meta.url);

interface Pending {
  job: FingerprintJob;
  signal: AbortSignal;
  resolve(result: SyncFingerprint): void;
  reject(error: unknown): void;
  onAbort(): void;
}

interface Thread {
  worker: Worker;
  /** Jobs posted to it and not answered yet (it reads them one after the other). */
  inFlight: Map<number, Pending>;
}

export function createFingerprintPool(options: PoolOptions = {}): FingerprintPool {
  const jobOptions: SyncFingerprintOptions = { keepContentUpTo: options.keepContentUpTo, digests: options.digests, maxSize: options.maxSize };
  const threads: Thread[] = [];
  const waiting: Pending[] = [];
  let nextId = 1;
  let broken: Error | null = null;
  let closed = false;
  let dispatchScheduled = false;

  const settle = (pending: Pending) => pending.signal.removeEventListener('abort', pending.onAbort);

  /** On this thread, as fingerprintFile does it (a failed or missing worker). */
  const runHere = (pending: Pending): void => {
    void inThread(pending.job, pending.signal).then(
      (result) => {
        settle(pending);
        pending.resolve(result);
      },
      (error: unknown) => {
        settle(pending);
        pending.reject(error);
      },
    );
  };

  const giveUp = (error: Error): void => {
    if (broken) return;
    broken = error;
    options.onFallback?.(error);
    for (const thread of threads.splice(0)) {
      for (const pending of thread.inFlight.values()) if (!pending.signal.aborted) runHere(pending);
      void thread.worker.terminate();
    }
    for (const pending of waiting.splice(0)) runHere(pending);
  };

  const answered = (thread: Thread, reply: FingerprintReply): void => {
    const pending = thread.inFlight.get(reply.id);
    thread.inFlight.delete(reply.id);
    if (!pending || pending.signal.aborted) return;
    settle(pending);
    if (reply.ok) pending.resolve(asBuffers(reply.result));
    else pending.reject(reply.error.code ? new FingerprintError(reply.error.code, reply.error.message, reply.error.detail ? { detail: reply.error.detail } : {}) : new Error(reply.error.message));
  };

  const startThread = (): Thread | null => {
    let worker: Worker;
    try {
      worker = new Worker(options.threadEntry ?? FINGERPRINT_THREAD_URL, { name: 'verdict-fingerprint' });
    } catch (error) {
      giveUp(error as Error);
      return null;
    }
    worker.unref();
    const thread: Thread = { worker, inFlight: new Map() };
    worker.on('message', (replies: FingerprintReply[]) => {
      for (const reply of replies) answered(thread, reply);
      // A thread with work holds the process open; an idle one does not.
      if (thread.inFlight.size === 0) worker.unref();
    });
    worker.on('error', (error) => giveUp(error));
    worker.on('exit', (code) => {
      if (!closed) giveUp(new Error(`the fingerprint thread stopped (exit code ${code})`));
    });
    threads.push(thread);
    return thread;
  };

  /** The jobs asked for in this turn go out together: one message per thread, to the least busy ones. */
  const dispatch = (): void => {
    dispatchScheduled = false;
    if (broken || closed || waiting.length === 0) return;
    const batches = new Map<Thread, FingerprintJob[]>();
    for (const pending of waiting.splice(0)) {
      const idle = threads.find((thread) => thread.inFlight.size === 0) ?? (threads.length < (options.threads ?? 1) ? startThread() : null);
      const thread = idle ?? threads.reduce((least, next) => (next.inFlight.size < least.inFlight.size ? next : least), threads[0]!);
      if (broken || !thread) {
        runHere(pending);
        continue;
      }
      thread.inFlight.set(pending.job.id, pending);
      batches.set(thread, [...(batches.get(thread) ?? []), pending.job]);
    }
    for (const [thread, jobs] of batches) {
      thread.worker.ref();
      thread.worker.postMessage(jobs);
    }
  };

  return {
    fingerprint(path, signal) {
      return new Promise<SyncFingerprint>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const pending: Pending = {
          job: { id: nextId++, path, options: jobOptions },
          signal,
          resolve,
          reject,
          onAbort: () => {
            const at = waiting.indexOf(pending);
            if (at >= 0) waiting.splice(at, 1);
            reject(signal.reason);
          },
        };
        signal.addEventListener('abort', pending.onAbort, { once: true });
        if (broken || closed) return runHere(pending);
        waiting.push(pending);
        if (dispatchScheduled) return;
        dispatchScheduled = true;
        setImmediate(dispatch);
      });
    },
    async close() {
      closed = true;
      await Promise.all(threads.splice(0).map((thread) => thread.worker.terminate()));
      for (const pending of waiting.splice(0)) runHere(pending);
    },
  };
}

/** A Buffer crosses threads as a plain Uint8Array: a view of the same (moved) memory is a Buffer again. */
function asBuffers(result: SyncFingerprint): SyncFingerprint {
  const content = result.kind === 'digests' ? result.fingerprint.content : undefined;
  if (!content || Buffer.isBuffer(content) || result.kind !== 'digests') return result;
  const view = content as Uint8Array;
  return { ...result, fingerprint: { ...result.fingerprint, content: Buffer.from(view.buffer, view.byteOffset, view.byteLength) } };
}

async function inThread(job: FingerprintJob, signal: AbortSignal): Promise<SyncFingerprint> {
  const { maxSize, keepContentUpTo, digests } = job.options;
  let tooLarge: number | null = null;
  const refuse = (opened: { size: number }) => (maxSize !== undefined && opened.size > maxSize ? ((tooLarge = opened.size), new Error('too large')) : undefined);
  try {
    const fingerprint = await fingerprintFile(job.path, { signal, refuse, ...(keepContentUpTo !== undefined ? { keepContentUpTo } : {}), ...(digests ? { digests } : {}) });
    const after: PathStat = null;
    return { kind: 'digests', fingerprint, after };
  } catch (error) {
    if (tooLarge !== null) return { kind: 'too_large', size: tooLarge };
    throw error;
  }
}

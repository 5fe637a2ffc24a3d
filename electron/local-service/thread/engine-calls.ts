// The local engine path, app side: a file handed to the service thread's engine
// as a message (thread-protocol.ts `scan-file`), its answer matched by id. A
// thread that ends fails the calls it held; the caller sends them again.
import type { Worker } from 'node:worker_threads';
import type { EngineScanOutcome, EngineScanRequest, FromThread, ToThread } from './thread-protocol.ts';

/** The thread that held the call stopped (or none runs now): nothing was decided about the file. */
export class EngineThreadGoneError extends Error {
  constructor(message = 'The built-in engine’s thread is not running (it is being restarted).') {
    super(message);
    this.name = 'EngineThreadGoneError';
  }
}

interface Call {
  worker: Worker;
  resolve(outcome: EngineScanOutcome): void;
  reject(error: unknown): void;
}

export interface EngineCalls {
  /** Rejects with EngineThreadGoneError when `worker` is null or ends first, and with the signal's reason on abort. */
  scan(worker: Worker | null, request: EngineScanRequest, signal: AbortSignal): Promise<EngineScanOutcome>;
  /** A message from a thread: the answers are taken, the rest ignored. */
  onMessage(message: FromThread): void;
  /** This thread has ended: its calls fail. */
  release(worker: Worker): void;
}

export function createEngineCalls(): EngineCalls {
  let nextId = 1;
  const calls = new Map<number, Call>();
  return {
    scan(worker, request, signal) {
      if (!worker) return Promise.reject(new EngineThreadGoneError());
      if (signal.aborted) return Promise.reject(signal.reason);
      const id = nextId++;
      return new Promise<EngineScanOutcome>((resolve, reject) => {
        const onAbort = () => {
          calls.delete(id);
          worker.postMessage({ type: 'scan-file-abort', id } satisfies ToThread);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const done = () => signal.removeEventListener('abort', onAbort);
        calls.set(id, {
          worker,
          resolve: (outcome) => (done(), resolve(outcome)),
          reject: (error) => (done(), reject(error)),
        });
        const { message, transfer } = sendable(id, request);
        worker.postMessage(message, transfer);
      });
    },
    onMessage(message) {
      if (message.type !== 'scan-file-done') return;
      const call = calls.get(message.id);
      calls.delete(message.id);
      call?.resolve(message.outcome);
    },
    release(worker) {
      for (const [id, call] of calls) {
        if (call.worker !== worker) continue;
        calls.delete(id);
        call.reject(new EngineThreadGoneError('The built-in engine’s thread stopped before it answered.'));
      }
    },
  };
}

/**
 * A view on part of a larger buffer would be cloned whole: only its own bytes are copied, and
 * that copy moves (transferred, not copied again). A buffer of its own is cloned as it is (the
 * caller may still hold it).
 */
function sendable(id: number, request: EngineScanRequest): { message: ToThread; transfer: ArrayBuffer[] } {
  const content = request.content;
  if (!content || (content.byteOffset === 0 && content.byteLength === content.buffer.byteLength)) return { message: { type: 'scan-file', id, request }, transfer: [] };
  const own = new Uint8Array(content);
  return { message: { type: 'scan-file', id, request: { ...request, content: own } }, transfer: [own.buffer] };
}

// The local engine path, app side: a file handed to the service thread's engine
// (thread-protocol.ts `scan-files`, the files of a turn in one message), its
// answer matched by id. A thread that ends fails the calls it held; the caller
// sends them again.
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
  /** Files handed over in this turn, not sent yet, for the thread they go to. */
  let outbox: { worker: Worker; files: Array<{ id: number; request: EngineScanRequest }>; transfer: ArrayBuffer[] } | null = null;
  const flush = () => {
    const due = outbox;
    outbox = null;
    if (due && due.files.length > 0) due.worker.postMessage({ type: 'scan-files', files: due.files } satisfies ToThread, due.transfer);
  };
  const enqueue = (worker: Worker, id: number, request: EngineScanRequest) => {
    // Another thread than the turn's (a restart): what was queued for the old one goes first.
    if (outbox && outbox.worker !== worker) flush();
    if (!outbox) {
      outbox = { worker, files: [], transfer: [] };
      setImmediate(flush);
    }
    const { file, transfer } = sendable(id, request);
    outbox.files.push(file);
    outbox.transfer.push(...transfer);
  };
  /** Still in this turn's outbox: taken out, the thread never hears of it (true); else false. */
  const unsend = (worker: Worker, id: number): boolean => {
    if (!outbox || outbox.worker !== worker) return false;
    const at = outbox.files.findIndex((file) => file.id === id);
    if (at < 0) return false;
    // A moved buffer stays in the transfer list: moved with the others, unread.
    outbox.files.splice(at, 1);
    return true;
  };
  return {
    scan(worker, request, signal) {
      if (!worker) return Promise.reject(new EngineThreadGoneError());
      if (signal.aborted) return Promise.reject(signal.reason);
      const id = nextId++;
      return new Promise<EngineScanOutcome>((resolve, reject) => {
        const onAbort = () => {
          calls.delete(id);
          if (!unsend(worker, id)) worker.postMessage({ type: 'scan-file-abort', id } satisfies ToThread);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const done = () => signal.removeEventListener('abort', onAbort);
        calls.set(id, {
          worker,
          resolve: (outcome) => (done(), resolve(outcome)),
          reject: (error) => (done(), reject(error)),
        });
        enqueue(worker, id, request);
      });
    },
    onMessage(message) {
      if (message.type !== 'scan-files-done') return;
      for (const { id, outcome } of message.answers) {
        const call = calls.get(id);
        calls.delete(id);
        call?.resolve(outcome);
      }
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
function sendable(id: number, request: EngineScanRequest): { file: { id: number; request: EngineScanRequest }; transfer: ArrayBuffer[] } {
  const content = request.content;
  if (!content || (content.byteOffset === 0 && content.byteLength === content.buffer.byteLength)) return { file: { id, request }, transfer: [] };
  const own = new Uint8Array(content);
  return { file: { id, request: { ...request, content: own } }, transfer: [own.buffer] };
}

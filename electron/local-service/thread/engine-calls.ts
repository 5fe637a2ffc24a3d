// The local engine path, app side: a file handed to the service thread's engine
// (thread-protocol.ts `scan-files`, the files of a turn in one message), its
// answer matched by id. A thread that ends fails the calls it held; the caller
// sends them again.
import { isMarkedAsUntransferable, type Worker } from 'node:worker_threads';
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
  /**
   * Rejects with EngineThreadGoneError when `worker` is null or ends first, and with the signal's reason on abort.
   * `request.content` is given up: its buffer moves to the thread (sendable).
   */
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
    const { file, transfer } = sendable(id, request, outbox.transfer);
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
      // Bytes given up before (a call made twice with them) are gone: never sent as an empty file.
      if ((request.content?.buffer as { detached?: boolean } | undefined)?.detached === true) return Promise.reject(new Error('The bytes to scan were handed over already.'));
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
 * The bytes move to the engine's thread, not copied: the caller gives them up (ServicePort.submit's
 * `content`), and its buffer is detached here. Copying every small file cost the core's thread and, through
 * the external memory it allocated, the GC (a 20,000-file scan, in turn: Verdict's CPU 34.2 and 44.2 s
 * copied, 29.9 and 37.6 s moved). A buffer that cannot move (Node's pool, under a small Buffer; one already moving) is copied.
 */
function sendable(id: number, request: EngineScanRequest, moving: readonly ArrayBuffer[]): { file: { id: number; request: EngineScanRequest }; transfer: ArrayBuffer[] } {
  const content = request.content;
  if (!content) return { file: { id, request }, transfer: [] };
  // A buffer moves once a message (listed twice, the message could not be sent at all).
  const movable = content.buffer instanceof ArrayBuffer && !isMarkedAsUntransferable(content.buffer) && !moving.includes(content.buffer);
  if (movable) return { file: { id, request }, transfer: [content.buffer as ArrayBuffer] };
  const own = new Uint8Array(content);
  return { file: { id, request: { ...request, content: own } }, transfer: [own.buffer] };
}

// The fingerprint thread's entry: fingerprints the files of each message, with
// blocking reads (fingerprint-sync.ts), and answers them in one message with the
// digests (a kept content's bytes are moved, not copied) or the error, by job id.
import { parentPort } from 'node:worker_threads';
import { FingerprintError } from './fingerprint.ts';
import { fingerprintFileSync } from './fingerprint-sync.ts';
import type { FingerprintJob, FingerprintReply } from './fingerprint-pool.ts';

const port = parentPort;
if (!port) throw new Error('fingerprint-thread.ts runs as a worker thread');

port.on('message', (jobs: FingerprintJob[]) => {
  const replies = jobs.map(answer);
  // A kept content's buffer is its own (allocUnsafeSlow): moved to the caller whole.
  const moved = replies.flatMap((reply) => (reply.ok && reply.result.kind === 'digests' && reply.result.fingerprint.content ? [reply.result.fingerprint.content.buffer as ArrayBuffer] : []));
  port.postMessage(replies, moved);
});

function answer(job: FingerprintJob): FingerprintReply {
  try {
    return { id: job.id, ok: true, result: fingerprintFileSync(job.path, job.options) };
  } catch (error) {
    const fingerprintError = error instanceof FingerprintError ? error : null;
    return {
      id: job.id,
      ok: false,
      error: { message: (error as Error).message, code: fingerprintError?.code ?? null, detail: fingerprintError?.detail ?? null },
    };
  }
}

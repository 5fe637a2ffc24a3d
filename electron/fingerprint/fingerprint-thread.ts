// The fingerprint thread's entry: fingerprints one file per message, with
// blocking reads (fingerprint-sync.ts), and answers with the digests (a kept
// content's bytes are moved, not copied) or the error, by job id.
import { parentPort } from 'node:worker_threads';
import { FingerprintError } from './fingerprint.ts';
import { fingerprintFileSync } from './fingerprint-sync.ts';
import type { FingerprintJob, FingerprintReply } from './fingerprint-pool.ts';

const port = parentPort;
if (!port) throw new Error('fingerprint-thread.ts runs as a worker thread');

port.on('message', (job: FingerprintJob) => {
  let reply: FingerprintReply;
  try {
    const result = fingerprintFileSync(job.path, job.options);
    reply = { id: job.id, ok: true, result };
  } catch (error) {
    const fingerprintError = error instanceof FingerprintError ? error : null;
    reply = {
      id: job.id,
      ok: false,
      error: { message: (error as Error).message, code: fingerprintError?.code ?? null, detail: fingerprintError?.detail ?? null },
    };
  }
  const content = reply.ok && reply.result.kind === 'digests' ? reply.result.fingerprint.content : undefined;
  // The content's buffer is its own (allocUnsafeSlow): moved to the caller whole.
  port.postMessage(reply, content ? [content.buffer as ArrayBuffer] : []);
});

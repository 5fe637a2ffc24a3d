// The multipart receiver (upload/receive-submission.ts) in memory: the same
// receiveSubmission the service calls, fed each generated body from a stream
// that stands for the request, at full speed. It must resolve with a file whose
// size and digest match what the body carried, or reject with a documented
// HttpError (its message rendered in both languages); anything else (another
// error, a throw that escapes to the process, a promise that never settles) is
// a finding. The HTTP layer around it (framing, 100-continue, answers) is the
// multipart target, over real sockets to the service in a thread.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ERROR_CODES } from '../../../shared/service-contract/errors.ts';
import { HttpError } from '../../../electron/local-service/http/http-error.ts';
import { render } from '../../../electron/local-service/messages/catalogue.ts';
import { receiveSubmission, UPLOAD_MEMORY_BUDGET_BYTES } from '../../../electron/local-service/upload/receive-submission.ts';
import { MemoryBudget } from '../../../electron/local-service/upload/upload-sink.ts';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { expectThat, FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { multipartBody, multipartInput, type MultipartInput } from './support/multipart.ts';

/** A request as receiveSubmission reads it: headers, a body stream, and `complete` once the body has ended. */
function requestOf(input: MultipartInput, body: Buffer, pieces: number): IncomingMessage {
  const size = Math.max(1, Math.ceil(body.length / pieces));
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) chunks.push(body.subarray(at, at + size));
  const req = Readable.from(chunks, { objectMode: false }) as Readable & { headers: Record<string, string>; complete: boolean };
  req.headers = {
    'content-type': input.contentType.replaceAll('{b}', input.boundary),
    ...(input.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
  };
  req.complete = false;
  req.on('end', () => (req.complete = true));
  return req as unknown as IncomingMessage;
}

export const multipartReceiverTarget: FuzzTarget<MultipartInput> = {
  name: 'multipart-receiver',
  about: 'receiveSubmission on a generated body from an in-memory stream: the file as sent, or a documented HttpError; never another error or a crash',
  smoke: { runs: 400 },
  async: true,
  async open() {
    const incomingDir = mkdtempSync(join(tmpdir(), 'verdict-fuzz-receiver-'));
    const budget = new MemoryBudget(UPLOAD_MEMORY_BUDGET_BYTES);
    let serial = 0;
    return {
      arbitrary: multipartInput,
      async check(input) {
        const body = multipartBody(input);
        const req = requestOf(input, body, 1 + (serial++ % 3));
        const maxFileSize = input.mode === 'sync' ? MAX_SYNC_FILE_SIZE : MAX_ASYNC_FILE_SIZE;
        let received: Awaited<ReturnType<typeof receiveSubmission>>;
        try {
          received = await receiveSubmission(req, { mode: input.mode, maxFileSize, incomingDir, memory: { budget } });
        } catch (error) {
          if (!(error instanceof HttpError)) throw new FuzzFinding(`not an HttpError: ${String(error)}`, { cause: error });
          expectThat(error.code === 'invalid_request' || error.code === 'file_too_large', `HttpError ${error.code} (status ${ERROR_CODES[error.code]})`);
          expectThat(render(error.detail, 'en').length > 0 && render(error.detail, 'de').length > 0, `an empty message for ${error.detail.key}`);
          return;
        } finally {
          expectThat(budget.used === 0, () => `the upload memory budget holds ${budget.used} bytes after the request`);
        }
        expectThat(received.file.kind === 'memory', 'a small upload went to a temporary file');
        if (received.file.kind === 'memory') expectThat(received.file.content.length === received.size, `content ${received.file.content.length} bytes, size ${received.size}`);
        expectThat(received.size <= body.length, `a file of ${received.size} bytes from a body of ${body.length}`);
        expectThat(/^[0-9a-f]{64}$/.test(received.hash.sha256), `sha256 ${received.hash.sha256}`);
      },
      close: () => rm(incomingDir, { recursive: true, force: true }),
    };
  },
};

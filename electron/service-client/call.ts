// One request to the service: credentials and budget first, the upload body
// watched for stalls, the response parsed (parse-response.ts), and every way it
// can fail turned into a ServiceError with nothing secret or local in it.
import type { Readable } from 'node:stream';
import type { ClientState, Operation } from './client-state.ts';
import { errorFromThrown } from './http-errors.ts';
import { LocalFileError, openMultipartUpload, type MultipartUpload } from './multipart-body.ts';
import { parseResponse } from './parse-response.ts';
import { readKey, readLanguage, takeBudget } from './request-access.ts';
import { BodyTooLargeError } from './response-body.ts';
import { reword, scrubber, type Scrub } from './scrub-error.ts';
import { sendableName } from './sendable-name.ts';
import { abortedError, ServiceError, wordedServiceError } from './service-error.ts';

/** One request as it goes: the stall watch and the upload body, ended in call()'s finally. */
interface Attempt {
  /** Our own controller ends a stalled upload; the caller's signal is forwarded to it. */
  readonly internal: AbortController;
  stalled: boolean;
  stallTimer: NodeJS.Timeout | undefined;
  upload: MultipartUpload | undefined;
}

export async function call<T>(state: ClientState, op: Operation<T>): Promise<T> {
  const { signal } = op;
  if (signal?.aborted) throw abortedError();
  const key = await readKey(state);
  const language = await readLanguage(state);
  await takeBudget(state, signal);
  const scrub = scrubber(key, op.upload?.file.path);

  // (A listener rather than AbortSignal.any: the pipeline may pass one long-lived signal to thousands of requests.)
  if (signal?.aborted) throw abortedError();
  const attempt: Attempt = { internal: new AbortController(), stalled: false, stallTimer: undefined, upload: undefined };
  const forwardAbort = () => attempt.internal.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      'user-agent': 'Verdict',
    };
    if (language) headers['content-language'] = language;
    const upload = await openUpload(state, op, attempt, headers);
    const wholeBody = upload && Buffer.isBuffer(upload.body) ? upload.body : undefined;
    // undici loads at the first request (module cache after): a local scan never needs it.
    const [{ request }, dispatcher] = await Promise.all([import('undici'), state.dispatcher()]);
    const responding = request(`${state.baseUrl}${op.path}`, {
      method: op.method,
      headers,
      // undici takes async iterables (and pulls them chunk by chunk) though its
      // types do not say so; a Readable would read ahead and break the buffer ring.
      body: upload ? (wholeBody ?? (upload.body as unknown as Readable)) : undefined,
      dispatcher,
      signal: attempt.internal.signal,
      headersTimeout: op.headersTimeoutMs,
      bodyTimeout: state.timeouts.bodyMs,
    });
    // A body sent as one buffer is handed over as the request goes out: its progress is reported once.
    if (wholeBody) op.upload?.onProgress?.({ sent: wholeBody.length, total: wholeBody.length });
    const response = await responding;
    // The upload is over once the head arrives (possibly early, e.g. a 413).
    if (attempt.stallTimer) clearTimeout(attempt.stallTimer);
    return await parseResponse(response, op, state.origin, scrub);
  } catch (error) {
    throw failure(error, state, op, attempt, scrub);
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
    if (attempt.stallTimer) clearTimeout(attempt.stallTimer);
    await attempt.upload?.close();
  }
}

/** Opens the multipart body of an upload (none for a GET), with a timer that ends the request when the socket stops taking it. */
async function openUpload<T>(state: ClientState, op: Operation<T>, attempt: Attempt, headers: Record<string, string>): Promise<MultipartUpload | undefined> {
  if (!op.upload) return undefined;
  const attributesJson = JSON.stringify({ ...op.upload.attributes, file_name: sendableName(op.upload.attributes.file_name ?? op.upload.file.name) });
  const { file } = op.upload;
  // Content already in memory is handed over whole (its body settles at once): no stall timer to arm.
  const timer =
    file.content?.length === file.size
      ? undefined
      : setTimeout(() => {
          attempt.stalled = true;
          attempt.internal.abort();
        }, state.timeouts.uploadStallMs);
  attempt.stallTimer = timer;
  attempt.upload = await openMultipartUpload(file, attributesJson, {
    onProgress: op.upload.onProgress,
    onPull: () => timer?.refresh(),
    // Waiting for the answer (up to the sync window) is not a stall.
    onSettled: () => clearTimeout(timer),
  });
  headers['content-type'] = attempt.upload.contentType;
  headers['content-length'] = String(attempt.upload.contentLength);
  return attempt.upload;
}

/** What a failed request reports: the caller's cancel, the local file, a stall, an oversized answer, or the network. */
function failure<T>(error: unknown, state: ClientState, op: Operation<T>, attempt: Attempt, scrub: Scrub): ServiceError {
  if (error instanceof ServiceError) return error;
  if (op.signal?.aborted) return abortedError();
  const fileError = error instanceof LocalFileError ? error : attempt.upload?.fileError;
  if (fileError) return wordedServiceError('file_unreadable', { cause: 'upload_problem', ...fileError.problem }, { code: fileError.code });
  if (attempt.stalled) {
    return new ServiceError('timeout', `The upload stalled: the service took no data for ${Math.round(state.timeouts.uploadStallMs / 1000)} s.`, { code: 'UPLOAD_STALLED' });
  }
  if (error instanceof BodyTooLargeError) {
    return wordedServiceError('malformed_response', { cause: 'answer_not_understood', operation: op.operation, detail: error.message });
  }
  return reword(
    errorFromThrown(error, {
      operation: op.operation,
      origin: state.origin,
      headersTimeoutMs: op.headersTimeoutMs,
      connectTimeoutMs: state.timeouts.connectMs,
    }),
    scrub,
  );
}

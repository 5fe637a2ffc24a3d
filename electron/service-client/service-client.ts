// HTTP client of the File Scanning Service (spec: ../shared/spec/file-scanning-service.md):
// both submission modes, both GETs, responses validated with the shared
// schemas, failures as ServiceError kinds. One request per call; retries,
// 408 continuation and 409 adoption live in resolve-submission.ts.
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { baseUrlSchema } from '../../shared/settings/settings.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { SYNC_WINDOW_MS } from '../../shared/service-contract/limits.ts';
import {
  asyncSubmissionSchema,
  externalReferenceIdSchema,
  scanSchema,
  terminalScanSchema,
  type AsyncSubmission,
  type Scan,
  type SubmissionAttributes,
} from '../../shared/service-contract/scan.ts';
import type { RequestBudget } from '../request-budget/request-budget.ts';
import { errorFromStatus, errorFromThrown } from './http-errors.ts';
import { LocalFileError, openMultipartUpload, type MultipartUpload, type UploadFile, type UploadProgress } from './multipart-body.ts';
import { BodyTooLargeError, describeIssues, parseJsonBody, readBodyText } from './response-body.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
import { redactSecret, ServiceError, wordedServiceError } from './service-error.ts';

export interface ServiceTimeouts {
  /** TCP/TLS connect (only for the client's own Agent; a passed dispatcher brings its own). */
  connectMs: number;
  /** Until the response head arrives, counted from the end of the upload. */
  headersMs: number;
  /** Longest silence while the response body arrives. */
  bodyMs: number;
  /** Response head of a sync submission: the service's 90 s window plus a margin. */
  syncHeadersMs: number;
  /** Longest time the socket may refuse the next upload chunk before the upload counts as stalled. */
  uploadStallMs: number;
}

export const DEFAULT_TIMEOUTS: ServiceTimeouts = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  syncHeadersMs: SYNC_WINDOW_MS + 30_000,
  uploadStallMs: 60_000,
};

type Provider<T> = () => T | Promise<T>;

export interface ServiceClientOptions {
  /** http(s) URL of the service, without credentials; endpoints are appended to its path. */
  baseUrl: string;
  /** Read before every request, so a new key takes effect at once. null: no key yet. */
  apiKey: Provider<string | null | undefined>;
  /** Language of the service's human-readable messages (Content-Language). */
  language?: Provider<Language | null | undefined>;
  /** Custom undici dispatcher (tests, proxies); by default the client owns an Agent. */
  dispatcher?: Dispatcher;
  timeouts?: Partial<ServiceTimeouts>;
  /** Used by the resolving helpers (submitAndResolve, recoverByReference). */
  retry?: Partial<RetryPolicy>;
  /** When given, every request (polls, submissions, retries) first takes a token from it. */
  budget?: RequestBudget;
  /** Randomness for jitter (tests). */
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SubmitOptions extends CallOptions {
  /** Upload progress in body bytes, per attempt; `sent` rises monotonically to `total`. */
  onProgress?: (progress: UploadProgress) => void;
}

/** The raw, one-request-per-call surface. */
export interface ServiceCalls {
  submitAsync(file: UploadFile, attributes: SubmissionAttributes, options?: SubmitOptions): Promise<AsyncSubmission>;
  /** Resolves with a terminal scan; a 408 rejects with kind `sync_timeout` and `scanId`. */
  submitSync(file: UploadFile, attributes: SubmissionAttributes, options?: SubmitOptions): Promise<Scan>;
  getScan(id: string, options?: CallOptions): Promise<Scan>;
  getByReference(externalReferenceId: string, options?: CallOptions): Promise<Scan>;
}

export interface BaseServiceClient extends ServiceCalls {
  readonly baseUrl: string;
  /** The budget every request draws from, if any (the poller uses it to avoid double counting). */
  readonly budget: RequestBudget | undefined;
  readonly retryPolicy: RetryPolicy;
  readonly random: () => number;
  /** Closes the client's own Agent (not a dispatcher passed in). */
  close(): Promise<void>;
}

/** Header values must be visible ASCII; a pasted key with spaces or a BOM would be rejected by undici. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

interface Operation<T> {
  method: 'GET' | 'POST';
  /** Path below the base URL, already encoded. */
  path: string;
  /** For messages and logs: `GET /file-scans/{id}`, never an id or secret. */
  operation: string;
  headersTimeoutMs: number;
  upload?: { file: UploadFile; attributes: SubmissionAttributes; onProgress?: (progress: UploadProgress) => void };
  schema: z.ZodType<T>;
  /** A consistency check on the parsed body; returns a problem or undefined. */
  check?: (value: T) => string | undefined;
  signal?: AbortSignal;
}

export function createBaseServiceClient(options: ServiceClientOptions): BaseServiceClient {
  const checked = baseUrlSchema.safeParse(options.baseUrl);
  if (!checked.success) {
    throw wordedServiceError('invalid_request', { cause: 'bad_base_url' });
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const origin = new URL(baseUrl).origin;
  const timeouts: ServiceTimeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const ownAgent = options.dispatcher ? undefined : new Agent({ connect: { timeout: timeouts.connectMs } });
  const dispatcher: Dispatcher = options.dispatcher ?? ownAgent!;
  const retryPolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const random = options.random ?? Math.random;

  const readKey = async (): Promise<string> => {
    let key: string | null | undefined;
    try {
      key = await options.apiKey();
    } catch {
      throw new ServiceError('unauthorized', 'The API key could not be read.');
    }
    key = key?.trim();
    if (!key) throw new ServiceError('unauthorized', 'No API key is set for the service.');
    if (!HEADER_SAFE.test(key)) {
      throw new ServiceError('unauthorized', 'The API key contains spaces or characters outside ASCII; check it for a typo.');
    }
    return key;
  };

  const readLanguage = async (): Promise<Language | undefined> => {
    try {
      return (await options.language?.()) ?? undefined;
    } catch {
      return undefined;
    }
  };

  const aborted = () => new ServiceError('aborted', 'The request was cancelled.');

  async function call<T>(op: Operation<T>): Promise<T> {
    const { signal } = op;
    if (signal?.aborted) throw aborted();
    const key = await readKey();
    const language = await readLanguage();
    if (options.budget) {
      try {
        await options.budget.acquire(signal);
      } catch {
        if (signal?.aborted) throw aborted();
        throw new ServiceError('aborted', 'The request budget was closed.');
      }
    }
    // Scrub anything a server might echo back: the key and, for uploads, the local path.
    const scrub = (message: string) => {
      let text = redactSecret(message, key);
      if (op.upload) text = text.split(op.upload.file.path).join('[file]');
      return text;
    };
    const reword = (error: ServiceError) =>
      new ServiceError(error.kind, scrub(error.message), {
        status: error.status,
        code: error.code,
        retryAfterMs: error.retryAfterMs,
        scanId: error.scanId,
        // The parameters say what the message says: scrubbed alike.
        ...(error.params ? { params: Object.fromEntries(Object.entries(error.params).map(([name, value]) => [name, typeof value === 'string' ? scrub(value) : value])) as typeof error.params } : {}),
      });

    // Our own controller ends a stalled upload; the caller's signal cancels.
    // (A listener rather than AbortSignal.any: the pipeline may pass one long-lived signal to thousands of requests.)
    if (signal?.aborted) throw aborted();
    const internal = new AbortController();
    const requestSignal = internal.signal;
    const forwardAbort = () => internal.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let stalled = false;
    let stallTimer: NodeJS.Timeout | undefined;
    let upload: MultipartUpload | undefined;
    try {
      const headers: Record<string, string> = {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        'user-agent': 'Verdict',
      };
      if (language) headers['content-language'] = language;
      if (op.upload) {
        const attributesJson = JSON.stringify({ ...op.upload.attributes, file_name: op.upload.attributes.file_name ?? op.upload.file.name });
        stallTimer = setTimeout(() => {
          stalled = true;
          internal.abort();
        }, timeouts.uploadStallMs);
        const timer = stallTimer;
        upload = await openMultipartUpload(op.upload.file, attributesJson, {
          onProgress: op.upload.onProgress,
          onPull: () => timer.refresh(),
          // Waiting for the answer (up to the sync window) is not a stall.
          onSettled: () => clearTimeout(timer),
        });
        headers['content-type'] = upload.contentType;
        headers['content-length'] = String(upload.contentLength);
      }
      const wholeBody = upload && Buffer.isBuffer(upload.body) ? upload.body : undefined;
      const responding = request(`${baseUrl}${op.path}`, {
        method: op.method,
        headers,
        // undici takes async iterables (and pulls them chunk by chunk) though its
        // types do not say so; a Readable would read ahead and break the buffer ring.
        body: upload ? (wholeBody ?? (upload.body as unknown as Readable)) : undefined,
        dispatcher,
        signal: requestSignal,
        headersTimeout: op.headersTimeoutMs,
        bodyTimeout: timeouts.bodyMs,
      });
      // A body sent as one buffer is handed over as the request goes out: its progress is reported once.
      if (wholeBody) op.upload?.onProgress?.({ sent: wholeBody.length, total: wholeBody.length });
      const response = await responding;
      // The upload is over once the head arrives (possibly early, e.g. a 413).
      if (stallTimer) clearTimeout(stallTimer);
      const contentType = response.headers['content-type'];
      const text = await readBodyText(response.body);
      const json = parseJsonBody(text, Array.isArray(contentType) ? contentType[0] : contentType);
      const { statusCode } = response;
      if (statusCode < 200 || statusCode > 299) {
        throw reword(errorFromStatus(statusCode, response.headers, json.ok ? json.value : undefined, { operation: op.operation, origin }));
      }
      if (!json.ok) {
        throw wordedServiceError('malformed_response', { cause: 'answer_not_understood', operation: op.operation, detail: scrub(json.problem) }, { status: statusCode });
      }
      const parsed = op.schema.safeParse(json.value);
      if (!parsed.success) {
        throw wordedServiceError('malformed_response', { cause: 'answer_wrong_shape', operation: op.operation, detail: scrub(describeIssues(parsed.error)) }, { status: statusCode });
      }
      const problem = op.check?.(parsed.data);
      if (problem) throw wordedServiceError('malformed_response', { cause: 'answer_inconsistent', operation: op.operation, detail: scrub(problem) }, { status: statusCode });
      return parsed.data;
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      if (signal?.aborted) throw aborted();
      const fileError = error instanceof LocalFileError ? error : upload?.fileError;
      if (fileError) throw wordedServiceError('file_unreadable', { cause: 'upload_problem', ...fileError.problem }, { code: fileError.code });
      if (stalled) {
        throw new ServiceError('timeout', `The upload stalled: the service took no data for ${Math.round(timeouts.uploadStallMs / 1000)} s.`, { code: 'UPLOAD_STALLED' });
      }
      if (error instanceof BodyTooLargeError) {
        throw wordedServiceError('malformed_response', { cause: 'answer_not_understood', operation: op.operation, detail: error.message });
      }
      throw reword(
        errorFromThrown(error, {
          operation: op.operation,
          origin,
          headersTimeoutMs: op.headersTimeoutMs,
          connectTimeoutMs: timeouts.connectMs,
        }),
      );
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
      if (stallTimer) clearTimeout(stallTimer);
      await upload?.close();
    }
  }

  const checkReference = (attributes: SubmissionAttributes) => {
    const ref = attributes.external_reference_id;
    if (ref === undefined) return;
    const result = externalReferenceIdSchema.safeParse(ref);
    if (!result.success) {
      throw wordedServiceError('invalid_request', { cause: 'bad_reference', detail: describeIssues(result.error) });
    }
  };

  const echoesReference = (ref: string | undefined) => (scan: { external_reference_id?: string | undefined }) =>
    ref !== undefined && scan.external_reference_id !== undefined && scan.external_reference_id !== ref
      ? 'external_reference_id differs from the one sent'
      : undefined;

  // A GET may return a processing scan; a terminal one must carry its verdict (or its error).
  const terminalComplete = (scan: Scan): string | undefined => {
    if (scan.status === 'processing') return undefined;
    const result = terminalScanSchema.safeParse(scan);
    return result.success ? undefined : describeIssues(result.error);
  };

  const requireId = (id: string) => {
    if (typeof id !== 'string' || id.length === 0) throw wordedServiceError('invalid_request', { cause: 'no_scan_id' });
  };

  return {
    baseUrl,
    budget: options.budget,
    retryPolicy,
    random,
    async submitAsync(file, attributes, callOptions = {}) {
      checkReference(attributes);
      return call({
        method: 'POST',
        path: '/file-scans',
        operation: 'POST /file-scans',
        headersTimeoutMs: timeouts.headersMs,
        upload: { file, attributes, onProgress: callOptions.onProgress },
        schema: asyncSubmissionSchema,
        check: echoesReference(attributes.external_reference_id),
        signal: callOptions.signal,
      });
    },
    async submitSync(file, attributes, callOptions = {}) {
      checkReference(attributes);
      return call({
        method: 'POST',
        path: '/file-scans/sync',
        operation: 'POST /file-scans/sync',
        headersTimeoutMs: timeouts.syncHeadersMs,
        upload: { file, attributes, onProgress: callOptions.onProgress },
        schema: terminalScanSchema as z.ZodType<Scan>,
        check: echoesReference(attributes.external_reference_id),
        signal: callOptions.signal,
      });
    },
    async getScan(id, callOptions = {}) {
      requireId(id);
      return call({
        method: 'GET',
        path: `/file-scans/${encodeURIComponent(id)}`,
        operation: 'GET /file-scans/{id}',
        headersTimeoutMs: timeouts.headersMs,
        schema: scanSchema,
        check: (scan) => (scan.id !== id ? 'the scan id differs from the one requested' : terminalComplete(scan)),
        signal: callOptions.signal,
      });
    },
    async getByReference(externalReferenceId, callOptions = {}) {
      checkReference({ external_reference_id: externalReferenceId });
      return call({
        method: 'GET',
        // Encoded as one path segment: references may contain `/` and `#`.
        path: `/file-scans/external-reference/${encodeURIComponent(externalReferenceId)}`,
        operation: 'GET /file-scans/external-reference/{ref}',
        headersTimeoutMs: timeouts.headersMs,
        schema: scanSchema,
        check: (scan) => echoesReference(externalReferenceId)(scan) ?? terminalComplete(scan),
        signal: callOptions.signal,
      });
    },
    async close() {
      await ownAgent?.close();
    },
  };
}

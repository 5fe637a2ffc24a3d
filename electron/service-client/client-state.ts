// The service client's state, named once: where it sends requests, how long it
// waits, how it retries, and where the key, language and budget come from.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { baseUrlSchema } from '../../shared/settings/settings.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import type { SubmissionAttributes } from '../../shared/service-contract/scan.ts';
import type { RequestBudget } from '../request-budget/request-budget.ts';
import type { UploadFile, UploadProgress } from './multipart-body.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
import { wordedServiceError } from './service-error.ts';
import { DEFAULT_TIMEOUTS, type ServiceTimeouts } from './timeouts.ts';

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

export interface ClientState {
  /** The base URL without a trailing slash. */
  readonly baseUrl: string;
  /** Named in messages about the service (never a path or query). */
  readonly origin: string;
  readonly timeouts: ServiceTimeouts;
  /** The dispatcher passed in, else the client's own Agent, made at the first request (undici loads only then: a local scan never needs it). */
  readonly dispatcher: () => Promise<Dispatcher>;
  /** Closes the Agent the client made itself, if it made one. */
  readonly closeOwnAgent: () => Promise<void>;
  readonly retryPolicy: RetryPolicy;
  readonly random: () => number;
  readonly apiKey: Provider<string | null | undefined>;
  readonly language: Provider<Language | null | undefined> | undefined;
  readonly budget: RequestBudget | undefined;
}

/** One request: what to send and how to check what comes back. */
export interface Operation<T> {
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

export function createClientState(options: ServiceClientOptions): ClientState {
  const checked = baseUrlSchema.safeParse(options.baseUrl);
  if (!checked.success) {
    throw wordedServiceError('invalid_request', { cause: 'bad_base_url' });
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeouts: ServiceTimeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const given = options.dispatcher;
  let ownAgent: Promise<Dispatcher> | undefined;
  const dispatcher = given ? () => Promise.resolve(given) : () => (ownAgent ??= import('undici').then(({ Agent }) => new Agent({ connect: { timeout: timeouts.connectMs } })));
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    timeouts,
    dispatcher,
    closeOwnAgent: async () => {
      if (ownAgent) await (await ownAgent).close();
    },
    retryPolicy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    random: options.random ?? Math.random,
    apiKey: options.apiKey,
    language: options.language,
    budget: options.budget,
  };
}

// Chooses and runs the File Scanning Service the pipeline talks to: the
// embedded local service (default; loopback, free port, a random key for this
// run) or a remote one (base URL from the settings, key from the keychain, or
// an override from the CLI). Rebuilt when the settings change, so the
// pipeline never needs a second code path for "the backend changed".
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Backend } from '../../shared/settings/settings.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { createRequestBudget, DEFAULT_REQUEST_BUDGET, LOCAL_SERVICE_REQUEST_BUDGET, type RequestBudget } from '../request-budget/request-budget.ts';
import { createServiceClient, type ServiceClient, type ServiceTimeouts } from '../service-client/client.ts';
import { createPoller, type Poller } from '../service-client/poller.ts';
import type { RetryPolicy } from '../service-client/retry-policy.ts';
import type { ServiceAvailability, ServicePort } from '../scans/ports.ts';
import { createFollowRegistry, type FollowRegistry } from './follow-registry.ts';
import type { LocalServiceStarter } from './local-backend.ts';

export const LOCAL_LABEL = 'local';

/** The key store as the backend needs it (electron/keychain). */
export interface KeySource {
  getKey(): Promise<string | null>;
}

export interface BackendOptions {
  dataDir: string;
  backend: () => Backend;
  language: () => Language;
  /** The remote service's key. */
  keys: KeySource | null;
  /** Why the keychain could not be read (shown while waiting for a key). */
  keychainError?: () => string | null;
  /** CLI / tests: a remote URL and key that win over the settings and the keychain. */
  override?: { baseUrl: string; apiKey: string };
  startLocal: LocalServiceStarter;
  /** Called whenever the client was rebuilt (the pipeline moves in-flight work over). */
  onChanged?: () => void;
  /** Called with every key the backend holds, so the logger can scrub it. */
  onSecret?: (secret: string) => void;
  budget?: { ratePerSecond: number; burst: number };
  timeouts?: Partial<ServiceTimeouts>;
  retry?: Partial<RetryPolicy>;
  poll?: { initialDelayMs?: number; maxDelayMs?: number };
  log?: { info(message: string, fields?: Record<string, unknown>): void; warn(message: string, fields?: Record<string, unknown>): void };
}

export interface BackendStats {
  label: string;
  polls: number;
  requests: number;
}

export interface BackendManager {
  /** Builds the client for the current settings (starting the embedded service if needed). */
  refresh(): Promise<void>;
  /** The key changed in the keychain: read it again (no rebuild needed, the client reads it per request). */
  reloadKey(): Promise<void>;
  availability(): ServiceAvailability;
  /** `local` or the remote origin: what new records store as their backend. */
  label(): string;
  /** The raw client of the current backend (test connection, tests), or null. */
  client(): ServiceClient | null;
  /** The embedded service's URL while it runs (tests, logs). */
  localUrl(): string | null;
  stats(): BackendStats;
  close(): Promise<void>;
}

interface Built {
  kind: 'local' | 'remote';
  label: string;
  /** Identity of the configuration this was built from, to skip needless rebuilds. */
  signature: string;
  connection: ServiceConnection;
  stopLocal: (() => Promise<void>) | null;
  localUrl: string | null;
}

/** A client, its poller and the pipeline's view of them, for one base URL and key. */
export interface ServiceConnection {
  port: ServicePort;
  client: ServiceClient;
  poller: Poller;
  budget: RequestBudget;
  close(): Promise<void>;
}

export function createServiceConnection(input: {
  label: string;
  baseUrl: string;
  apiKey: () => string | null;
  language?: () => Language;
  budget?: { ratePerSecond: number; burst: number };
  timeouts?: Partial<ServiceTimeouts>;
  retry?: Partial<RetryPolicy>;
  poll?: { initialDelayMs?: number; maxDelayMs?: number };
}): ServiceConnection {
  const budget = createRequestBudget(input.budget ?? DEFAULT_REQUEST_BUDGET);
  let client: ServiceClient;
  try {
    client = createServiceClient({ baseUrl: input.baseUrl, apiKey: input.apiKey, language: input.language, budget, timeouts: input.timeouts, retry: input.retry });
  } catch (error) {
    budget.close();
    throw error;
  }
  const follows: FollowRegistry = createFollowRegistry();
  const poller = createPoller({
    client,
    initialDelayMs: input.poll?.initialDelayMs,
    maxDelayMs: input.poll?.maxDelayMs,
    onUpdate: (update) => {
      if (update.terminal) follows.settle(update.scanId, update.scan);
    },
    onError: (event) => {
      // A rejected key or a scan given up on ends the follow; the pipeline decides what next.
      if (event.final || event.error.kind === 'unauthorized') {
        poller.untrack(event.scanId);
        follows.fail(event.scanId, event.error);
      }
    },
  });
  const port: ServicePort = {
    label: input.label,
    async submit(file, submitOptions) {
      const resolved = await client.submitAndResolve(file, {
        mode: submitOptions.mode,
        externalReferenceId: submitOptions.externalReferenceId,
        signal: submitOptions.signal,
        onProgress: (progress) => submitOptions.onProgress(progress.sent, progress.total),
      });
      return resolved.scan;
    },
    lookup: (ref, signal) => client.recoverByReference(ref, { signal }),
    follow: (scanId, signal) => follows.follow(scanId, signal, () => poller.track(scanId), () => poller.untrack(scanId)),
  };
  return {
    port,
    client,
    poller,
    budget,
    async close() {
      follows.cancelAll();
      budget.close();
      await poller.stop();
      await client.close();
    },
  };
}

export function remoteLabel(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

export function createBackendManager(options: BackendOptions): BackendManager {
  let built: Built | null = null;
  let unavailable: { reason: 'awaiting_api_key' | 'backend_unavailable'; message: string } | null = null;
  let remoteKey: string | null = null;
  let refreshing: Promise<void> = Promise.resolve();
  let closed = false;

  const desired = (): { kind: 'local' } | { kind: 'remote'; baseUrl: string; override: boolean } => {
    if (options.override) return { kind: 'remote', baseUrl: options.override.baseUrl, override: true };
    const backend = options.backend();
    return backend.kind === 'remote' ? { kind: 'remote', baseUrl: backend.baseUrl, override: false } : { kind: 'local' };
  };

  const label = () => {
    const want = desired();
    return want.kind === 'local' ? LOCAL_LABEL : remoteLabel(want.baseUrl);
  };

  const readRemoteKey = async (): Promise<void> => {
    if (options.override) {
      remoteKey = options.override.apiKey;
    } else if (!options.keys) {
      remoteKey = null;
    } else {
      try {
        remoteKey = await options.keys.getKey();
      } catch (error) {
        remoteKey = null;
        options.log?.warn('could not read the API key from the keychain', { error: (error as Error).message });
      }
    }
    if (remoteKey) options.onSecret?.(remoteKey);
  };

  const teardown = async (old: Built | null) => {
    if (!old) return;
    await old.connection.close();
    await old.stopLocal?.();
  };

  const build = async (): Promise<void> => {
    const want = desired();
    const signature = want.kind === 'local' ? 'local' : `remote ${want.baseUrl}`;
    if (built && built.signature === signature) return;
    const old = built;
    built = null;
    await teardown(old);
    if (closed) return;

    let baseUrl: string;
    let apiKey: () => string | null;
    let stopLocal: (() => Promise<void>) | null = null;
    let localUrl: string | null = null;
    if (want.kind === 'local') {
      // A fresh key per run: only this process can talk to its embedded service.
      const key = randomBytes(32).toString('base64url');
      options.onSecret?.(key);
      try {
        const service = await options.startLocal({ apiKey: key, dataDir: join(options.dataDir, 'local-service') });
        baseUrl = service.url;
        localUrl = service.url;
        stopLocal = service.close;
      } catch (error) {
        unavailable = { reason: 'backend_unavailable', message: `The built-in scanning service could not start: ${(error as Error).message}` };
        options.log?.warn('embedded service failed to start', { error: (error as Error).message });
        return;
      }
      apiKey = () => key;
    } else {
      baseUrl = want.baseUrl;
      await readRemoteKey();
      apiKey = () => remoteKey;
    }

    const label = want.kind === 'local' ? LOCAL_LABEL : remoteLabel(want.baseUrl);
    let connection: ServiceConnection;
    try {
      connection = createServiceConnection({
        label,
        baseUrl,
        apiKey,
        language: options.language,
        // The embedded service is ours and on loopback: a larger budget than a shared remote service gets.
        budget: options.budget ?? (want.kind === 'local' ? LOCAL_SERVICE_REQUEST_BUDGET : undefined),
        timeouts: options.timeouts,
        retry: options.retry,
        poll: options.poll,
      });
    } catch (error) {
      await stopLocal?.();
      unavailable = { reason: 'backend_unavailable', message: (error as Error).message };
      return;
    }
    built = { kind: want.kind, label, signature, connection, stopLocal, localUrl };
    unavailable = null;
    options.log?.info('backend ready', { backend: label });
  };

  return {
    refresh() {
      // Serialised: two quick settings changes must not start two embedded services.
      const previousLabel = built?.signature ?? null;
      refreshing = refreshing.then(build).then(() => {
        if ((built?.signature ?? null) !== previousLabel) options.onChanged?.();
      });
      return refreshing;
    },
    async reloadKey() {
      if (built?.kind === 'remote') await readRemoteKey();
    },
    availability() {
      if (!built) {
        return { ok: false, reason: unavailable?.reason ?? 'backend_unavailable', message: unavailable?.message ?? 'The scanning service is starting.' };
      }
      if (built.kind === 'remote' && !remoteKey) {
        const keychainError = options.keychainError?.();
        const why = keychainError ? ` (${keychainError})` : '';
        return { ok: false, reason: 'awaiting_api_key', message: `No API key is set for ${built.label}${why}. Set one in the settings.` };
      }
      return { ok: true, service: built.connection.port };
    },
    label: () => built?.label ?? label(),
    client: () => built?.connection.client ?? null,
    localUrl: () => built?.localUrl ?? null,
    stats: () => ({ label: built?.label ?? label(), polls: built?.connection.poller.stats().polls ?? 0, requests: built?.connection.budget.stats().granted ?? 0 }),
    async close() {
      closed = true;
      await refreshing.catch(() => undefined);
      const old = built;
      built = null;
      await teardown(old);
    },
  };
}

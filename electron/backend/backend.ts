// Chooses and runs the File Scanning Service the pipeline talks to: the
// embedded local service (default; loopback, free port, a random key for this
// run) or a remote one (base URL from the settings, key from the keychain, or
// an override from the CLI). Rebuilt when the settings change, so the
// pipeline never needs a second code path for "the backend changed".
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FolderBackend } from '../../shared/settings/protection.ts';
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

/**
 * Which service a record asks for: `default` (the settings' backend), `local` (the built-in engine) or
 * `remote` (the configured remote service), as a watched folder chose (shared/settings/protection.ts).
 */
export type BackendTarget = FolderBackend;

export interface BackendOptions {
  dataDir: string;
  /** The default backend (settings.backend). */
  backend: () => Backend;
  /** The remote service folders set to `remote` use while the default is local (settings.remoteBaseUrl). */
  remoteBaseUrl?: () => string | null;
  /** Targets besides `default` that some watched folder uses: their services are kept running too. */
  extraTargets?: () => ReadonlySet<BackendTarget>;
  language: () => Language;
  /** The remote service's key. */
  keys: KeySource | null;
  /** Why the keychain could not be read (shown while waiting for a key). */
  keychainError?: () => string | null;
  /** CLI / tests: a remote URL and key that win over the settings and the keychain, for every target. */
  override?: { baseUrl: string; apiKey: string };
  startLocal: LocalServiceStarter;
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
  /**
   * Starts the services the settings need (the default's, and each watched folder's) and stops the rest.
   * Resolves with whether any connection was started or stopped.
   */
  refresh(): Promise<boolean>;
  /** The key changed in the keychain: read it again (no rebuild needed, the client reads it per request). */
  reloadKey(): Promise<void>;
  availability(target?: BackendTarget): ServiceAvailability;
  /** `local`, the remote origin, or `remote` when none is set up: what records store as their backend. */
  label(target?: BackendTarget): string;
  /** The raw client of a target's service (test connection, tests), or null. */
  client(target?: BackendTarget): ServiceClient | null;
  /** The embedded service's URL while it runs (tests, logs). */
  localUrl(): string | null;
  /** Of the default target's service. */
  stats(): BackendStats;
  close(): Promise<void>;
}

/** The label of a target that names the remote service while none is set up. */
export const NO_REMOTE_LABEL = 'remote';

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

type Wanted = { kind: 'local' } | { kind: 'remote'; baseUrl: string } | { kind: 'none' };

export function createBackendManager(options: BackendOptions): BackendManager {
  let local: Built | null = null;
  let remote: Built | null = null;
  let localError: string | null = null;
  let remoteError: string | null = null;
  let remoteKey: string | null = null;
  let refreshing: Promise<boolean> = Promise.resolve(false);
  let closed = false;

  const remoteUrl = (): string | null => {
    if (options.override) return options.override.baseUrl;
    const backend = options.backend();
    return backend.kind === 'remote' ? backend.baseUrl : (options.remoteBaseUrl?.() ?? null);
  };

  const resolveTarget = (target: BackendTarget): Wanted => {
    // A service named by the caller (CLI, tests) takes every file.
    if (options.override) return { kind: 'remote', baseUrl: options.override.baseUrl };
    if (target === 'local') return { kind: 'local' };
    if (target === 'remote') {
      const url = remoteUrl();
      return url ? { kind: 'remote', baseUrl: url } : { kind: 'none' };
    }
    const backend = options.backend();
    return backend.kind === 'remote' ? { kind: 'remote', baseUrl: backend.baseUrl } : { kind: 'local' };
  };

  const labelOf = (wanted: Wanted): string => {
    if (wanted.kind === 'local') return LOCAL_LABEL;
    if (wanted.kind === 'none') return NO_REMOTE_LABEL;
    try {
      return remoteLabel(wanted.baseUrl);
    } catch {
      return wanted.baseUrl;
    }
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

  const connect = (kind: 'local' | 'remote', label: string, baseUrl: string, apiKey: () => string | null) =>
    createServiceConnection({
      label,
      baseUrl,
      apiKey,
      language: options.language,
      // The embedded service is ours and on loopback: a larger budget than a shared remote service gets.
      budget: options.budget ?? (kind === 'local' ? LOCAL_SERVICE_REQUEST_BUDGET : undefined),
      timeouts: options.timeouts,
      retry: options.retry,
      poll: options.poll,
    });

  const buildLocal = async (): Promise<void> => {
    // A fresh key per run: only this process can talk to its embedded service.
    const key = randomBytes(32).toString('base64url');
    options.onSecret?.(key);
    let service: Awaited<ReturnType<LocalServiceStarter>>;
    try {
      service = await options.startLocal({ apiKey: key, dataDir: join(options.dataDir, 'local-service') });
    } catch (error) {
      localError = `The built-in scanning service could not start: ${(error as Error).message}`;
      options.log?.warn('embedded service failed to start', { error: (error as Error).message });
      return;
    }
    try {
      local = { kind: 'local', label: LOCAL_LABEL, signature: 'local', connection: connect('local', LOCAL_LABEL, service.url, () => key), stopLocal: service.close, localUrl: service.url };
      localError = null;
      options.log?.info('backend ready', { backend: LOCAL_LABEL });
    } catch (error) {
      await service.close();
      localError = (error as Error).message;
    }
  };

  const buildRemote = async (baseUrl: string): Promise<void> => {
    await readRemoteKey();
    const label = labelOf({ kind: 'remote', baseUrl });
    try {
      remote = { kind: 'remote', label, signature: `remote ${baseUrl}`, connection: connect('remote', label, baseUrl, () => remoteKey), stopLocal: null, localUrl: null };
      remoteError = null;
      options.log?.info('backend ready', { backend: label });
    } catch (error) {
      remoteError = (error as Error).message;
    }
  };

  /** Brings the running services in line with what the targets in use need; true when something changed. */
  const reconcile = async (): Promise<boolean> => {
    const targets = new Set<BackendTarget>(['default', ...(options.extraTargets?.() ?? [])]);
    const wanted = [...targets].map(resolveTarget);
    const needLocal = wanted.some((want) => want.kind === 'local');
    const remoteWanted = wanted.find((want): want is { kind: 'remote'; baseUrl: string } => want.kind === 'remote');
    let changed = false;
    if (!needLocal && local) {
      const old = local;
      local = null;
      await teardown(old);
      changed = true;
    }
    if (remote && (!remoteWanted || remote.signature !== `remote ${remoteWanted.baseUrl}`)) {
      const old = remote;
      remote = null;
      await teardown(old);
      changed = true;
    }
    if (!needLocal) localError = null;
    if (!remoteWanted) remoteError = null;
    if (closed) return changed;
    if (needLocal && !local) {
      await buildLocal();
      changed = true;
    }
    if (remoteWanted && !remote) {
      await buildRemote(remoteWanted.baseUrl);
      changed = true;
    }
    return changed;
  };

  const builtFor = (wanted: Wanted): Built | null => {
    if (wanted.kind === 'local') return local;
    if (wanted.kind === 'remote' && remote?.signature === `remote ${wanted.baseUrl}`) return remote;
    return null;
  };

  return {
    refresh() {
      // Serialised: two quick settings changes must not start two embedded services.
      const next = refreshing.catch(() => false).then(reconcile);
      refreshing = next;
      return next;
    },
    async reloadKey() {
      if (remote) await readRemoteKey();
    },
    availability(target = 'default') {
      const wanted = resolveTarget(target);
      if (wanted.kind === 'none') {
        return {
          ok: false,
          reason: 'backend_unavailable',
          message: 'This folder sends its files to the remote service, but none is set up. Enter its address in the settings, or let the folder use the built-in engine.',
        };
      }
      const built = builtFor(wanted);
      if (!built) {
        const error = wanted.kind === 'local' ? localError : remoteError;
        return { ok: false, reason: 'backend_unavailable', message: error ?? 'The scanning service is starting.' };
      }
      if (built.kind === 'remote' && !remoteKey) {
        const keychainError = options.keychainError?.();
        const why = keychainError ? ` (${keychainError})` : '';
        return { ok: false, reason: 'awaiting_api_key', message: `No API key is set for ${built.label}${why}. Set one in the settings.` };
      }
      return { ok: true, service: built.connection.port };
    },
    label: (target = 'default') => labelOf(resolveTarget(target)),
    client: (target = 'default') => builtFor(resolveTarget(target))?.connection.client ?? null,
    localUrl: () => local?.localUrl ?? null,
    stats() {
      const wanted = resolveTarget('default');
      const built = builtFor(wanted);
      return { label: labelOf(wanted), polls: built?.connection.poller.stats().polls ?? 0, requests: built?.connection.budget.stats().granted ?? 0 };
    },
    async close() {
      closed = true;
      await refreshing.catch(() => undefined);
      const old = [local, remote];
      local = null;
      remote = null;
      for (const built of old) await teardown(built);
    },
  };
}

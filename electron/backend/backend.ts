// Chooses and runs the File Scanning Service the pipeline talks to: the
// embedded local service (default; loopback, free port, a random key for this
// run) or a remote one (base URL from the settings, key from the keychain, or
// an override from the CLI). Rebuilt when the settings change, so the
// pipeline never needs a second code path for "the backend changed".
// State: BackendState (backend-state.ts); starting and stopping: backend-services.ts.
import type { FolderBackend } from '../../shared/settings/protection.ts';
import type { Backend } from '../../shared/settings/settings.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import type { ServiceClient, ServiceTimeouts } from '../service-client/client.ts';
import type { RetryPolicy } from '../service-client/retry-policy.ts';
import type { ServiceAvailability } from '../scans/ports.ts';
import { builtFor, createBackendState, labelOf, resolveTarget, type BackendState } from './backend-state.ts';
import { readRemoteKey, reconcileServices, teardown } from './backend-services.ts';
import type { LocalServiceStarter } from './local-backend.ts';

export { LOCAL_LABEL, NO_REMOTE_LABEL, remoteLabel } from './backend-state.ts';
export { createServiceConnection, type ServiceConnection } from './service-connection.ts';

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

export function createBackendManager(options: BackendOptions): BackendManager {
  const state = createBackendState(options);
  return {
    refresh() {
      // Serialised: two quick settings changes must not start two embedded services.
      const next = state.refreshing.catch(() => false).then(() => reconcileServices(state));
      state.refreshing = next;
      return next;
    },
    async reloadKey() {
      if (state.remote) await readRemoteKey(state);
    },
    availability: (target = 'default') => availability(state, target),
    label: (target = 'default') => labelOf(resolveTarget(options, target)),
    client: (target = 'default') => builtFor(state, resolveTarget(options, target))?.connection.client ?? null,
    localUrl: () => state.local?.localUrl ?? null,
    stats() {
      const wanted = resolveTarget(options, 'default');
      const built = builtFor(state, wanted);
      return { label: labelOf(wanted), polls: built?.connection.poller.stats().polls ?? 0, requests: built?.connection.budget.stats().granted ?? 0 };
    },
    async close() {
      state.closed = true;
      await state.refreshing.catch(() => undefined);
      const old = [state.local, state.remote];
      state.local = null;
      state.remote = null;
      for (const built of old) await teardown(built);
    },
  };
}

/** Whether a target's service takes files now, and if not, why (in words the user can act on). */
function availability(state: BackendState, target: BackendTarget): ServiceAvailability {
  const wanted = resolveTarget(state.options, target);
  if (wanted.kind === 'none') {
    return {
      ok: false,
      reason: 'backend_unavailable',
      message: 'This folder sends its files to the remote service, but none is set up. Enter its address in the settings, or let the folder use the built-in engine.',
    };
  }
  const built = builtFor(state, wanted);
  if (!built) {
    const error = wanted.kind === 'local' ? state.localError : state.remoteError;
    return { ok: false, reason: 'backend_unavailable', message: error ?? 'The scanning service is starting.' };
  }
  if (built.kind === 'remote' && !state.remoteKey) {
    const keychainError = state.options.keychainError?.();
    const why = keychainError ? ` (${keychainError})` : '';
    return { ok: false, reason: 'awaiting_api_key', message: `No API key is set for ${built.label}${why}. Set one in the settings.` };
  }
  return { ok: true, service: built.port };
}

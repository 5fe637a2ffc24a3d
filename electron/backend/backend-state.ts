// The backend manager's state, named once: the services it runs (at most one
// embedded and one remote), why one could not start, the remote key, and which
// service each target resolves to.
import type { ServicePort } from '../scans/ports.ts';
import type { BackendOptions, BackendTarget } from './backend.ts';
import type { ServiceConnection } from './service-connection.ts';

export const LOCAL_LABEL = 'local';

/** The label of a target that names the remote service while none is set up. */
export const NO_REMOTE_LABEL = 'remote';

/** A running service and its connection. */
export interface Built {
  kind: 'local' | 'remote';
  label: string;
  /** Identity of the configuration this was built from, to skip needless rebuilds. */
  signature: string;
  connection: ServiceConnection;
  /** What the pipeline sends files to: the connection's port, or the embedded service's engine (local-engine-port.ts). */
  port: ServicePort;
  stopLocal: (() => Promise<void>) | null;
  localUrl: string | null;
}

export type Wanted = { kind: 'local' } | { kind: 'remote'; baseUrl: string } | { kind: 'none' };

export interface BackendState {
  readonly options: BackendOptions;
  local: Built | null;
  remote: Built | null;
  /** Why the embedded service is not running, while it is wanted. */
  localError: string | null;
  /** Why the remote connection could not be made, while it is wanted. */
  remoteError: string | null;
  remoteKey: string | null;
  /** The last refresh; the next one starts after it (refreshes never overlap). */
  refreshing: Promise<boolean>;
  closed: boolean;
}

export function createBackendState(options: BackendOptions): BackendState {
  return { options, local: null, remote: null, localError: null, remoteError: null, remoteKey: null, refreshing: Promise.resolve(false), closed: false };
}

export function remoteLabel(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** The remote service's base URL: the override's, the default backend's, else the one kept for folders. */
function remoteUrl(options: BackendOptions): string | null {
  if (options.override) return options.override.baseUrl;
  const backend = options.backend();
  return backend.kind === 'remote' ? backend.baseUrl : (options.remoteBaseUrl?.() ?? null);
}

export function resolveTarget(options: BackendOptions, target: BackendTarget): Wanted {
  // A service named by the caller (CLI, tests) takes every file.
  if (options.override) return { kind: 'remote', baseUrl: options.override.baseUrl };
  if (target === 'local') return { kind: 'local' };
  if (target === 'remote') {
    const url = remoteUrl(options);
    return url ? { kind: 'remote', baseUrl: url } : { kind: 'none' };
  }
  const backend = options.backend();
  return backend.kind === 'remote' ? { kind: 'remote', baseUrl: backend.baseUrl } : { kind: 'local' };
}

export function labelOf(wanted: Wanted): string {
  if (wanted.kind === 'local') return LOCAL_LABEL;
  if (wanted.kind === 'none') return NO_REMOTE_LABEL;
  try {
    return remoteLabel(wanted.baseUrl);
  } catch {
    return wanted.baseUrl;
  }
}

/** The running service a target resolves to, or null while it is not (yet) running. */
export function builtFor(state: BackendState, wanted: Wanted): Built | null {
  if (wanted.kind === 'local') return state.local;
  if (wanted.kind === 'remote' && state.remote?.signature === `remote ${wanted.baseUrl}`) return state.remote;
  return null;
}

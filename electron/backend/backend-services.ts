// Starting and stopping the services the targets in use need: the embedded
// service with a fresh key per run, the remote one with the keychain's key.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { LOCAL_SERVICE_REQUEST_BUDGET } from '../request-budget/request-budget.ts';
import type { BackendTarget } from './backend.ts';
import { labelOf, LOCAL_LABEL, resolveTarget, type BackendState, type Built } from './backend-state.ts';
import type { LocalServiceStarter } from './local-backend.ts';
import { createLocalEnginePort } from './local-engine-port.ts';
import { createServiceConnection } from './service-connection.ts';

/** Brings the running services in line with what the targets in use need; true when something changed. */
export async function reconcileServices(state: BackendState): Promise<boolean> {
  const { options } = state;
  const targets = new Set<BackendTarget>(['default', ...(options.extraTargets?.() ?? [])]);
  const wanted = [...targets].map((target) => resolveTarget(options, target));
  const needLocal = wanted.some((want) => want.kind === 'local');
  const remoteWanted = wanted.find((want): want is { kind: 'remote'; baseUrl: string } => want.kind === 'remote');
  let changed = false;
  if (!needLocal && state.local) {
    const old = state.local;
    state.local = null;
    await teardown(old);
    changed = true;
  }
  if (state.remote && (!remoteWanted || state.remote.signature !== `remote ${remoteWanted.baseUrl}`)) {
    const old = state.remote;
    state.remote = null;
    await teardown(old);
    changed = true;
  }
  if (!needLocal) state.localError = null;
  if (!remoteWanted) state.remoteError = null;
  if (state.closed) return changed;
  if (needLocal && !state.local) {
    await buildLocal(state);
    changed = true;
  }
  if (remoteWanted && !state.remote) {
    await buildRemote(state, remoteWanted.baseUrl);
    changed = true;
  }
  return changed;
}

export async function teardown(old: Built | null): Promise<void> {
  if (!old) return;
  await old.connection.close();
  await old.stopLocal?.();
}

/** Reads the remote service's key (the override's, else the keychain's) and hands it to the log scrubber. */
export async function readRemoteKey(state: BackendState): Promise<void> {
  const { options } = state;
  if (options.override) {
    state.remoteKey = options.override.apiKey;
  } else if (!options.keys) {
    state.remoteKey = null;
  } else {
    try {
      state.remoteKey = await options.keys.getKey();
    } catch (error) {
      state.remoteKey = null;
      options.log?.warn('could not read the API key from the keychain', { error: (error as Error).message });
    }
  }
  if (state.remoteKey) options.onSecret?.(state.remoteKey);
}

/**
 * Polling the embedded service: sooner than a remote one (1 s, doubling to 30 s). It is ours, on loopback,
 * with a budget of thousands of requests a second. Its doorbell (onFinished) says when each async scan ends,
 * so these polls only catch a ring that was lost (the service thread restarting).
 */
export const LOCAL_POLL = { initialDelayMs: 150, maxDelayMs: 5_000 } as const;

function connect(state: BackendState, kind: 'local' | 'remote', label: string, baseUrl: string, apiKey: () => string | null, recorded?: (scanIds: readonly string[]) => void) {
  const { options } = state;
  return createServiceConnection({
    label,
    ...(recorded ? { recorded } : {}),
    baseUrl,
    apiKey,
    language: options.language,
    // The embedded service is ours and on loopback: a larger budget than a shared remote service gets.
    budget: options.budget ?? (kind === 'local' ? LOCAL_SERVICE_REQUEST_BUDGET : undefined),
    timeouts: options.timeouts,
    retry: options.retry,
    poll: options.poll ?? (kind === 'local' ? LOCAL_POLL : undefined),
  });
}

async function buildLocal(state: BackendState): Promise<void> {
  const { options } = state;
  // A fresh key per run: only this process can talk to its embedded service.
  const key = randomBytes(32).toString('base64url');
  options.onSecret?.(key);
  let service: Awaited<ReturnType<LocalServiceStarter>>;
  try {
    service = await options.startLocal({ apiKey: key, dataDir: join(options.dataDir, 'local-service') });
  } catch (error) {
    state.localError = `The built-in scanning service could not start: ${(error as Error).message}`;
    options.log?.warn('embedded service failed to start', { error: (error as Error).message });
    return;
  }
  try {
    const connection = connect(state, 'local', LOCAL_LABEL, service.url, () => key, service.recorded);
    // The service rings when a scan it was not asked to wait for finishes; the answer is still read over HTTP.
    service.onFinished?.((scanIds) => connection.finished(scanIds));
    // The local engine path: files go to the service's engine as messages; the connection stays for what an earlier run left there.
    const scanFile = service.scanFile;
    const port = scanFile
      ? createLocalEnginePort({ label: LOCAL_LABEL, scanFile: (request, signal) => scanFile(request, signal), language: options.language, service: connection.port })
      : connection.port;
    state.local = { kind: 'local', label: LOCAL_LABEL, signature: 'local', connection, port, stopLocal: service.close, localUrl: service.url };
    state.localError = null;
    options.log?.info('backend ready', { backend: LOCAL_LABEL });
  } catch (error) {
    await service.close();
    state.localError = (error as Error).message;
  }
}

async function buildRemote(state: BackendState, baseUrl: string): Promise<void> {
  await readRemoteKey(state);
  const label = labelOf({ kind: 'remote', baseUrl });
  try {
    const connection = connect(state, 'remote', label, baseUrl, () => state.remoteKey);
    state.remote = { kind: 'remote', label, signature: `remote ${baseUrl}`, connection, port: connection.port, stopLocal: null, localUrl: null };
    state.remoteError = null;
    state.options.log?.info('backend ready', { backend: label });
  } catch (error) {
    state.remoteError = (error as Error).message;
  }
}

// The core's protection capability: the state of the engine the default service
// uses (the embedded service's live engine, or none of Verdict's with a remote
// service). The service's engine watch is the one that looks (every minute, and
// when asked here); the core shows what it reports, and runs "Update signatures now".
// Without a running embedded service it only looks, never starts a clamd.
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { ProtectionView, SignatureUpdateOutcome } from '../../shared/engine/protection-view.ts';
import { ok } from '../../shared/result.ts';
import type { LocalServiceHandle } from '../backend/local-backend.ts';
import { engineStatus } from '../engine/engine-status.ts';
import type { EngineReport } from '../local-service/thread/thread-protocol.ts';
import type { CoreContext, Guard } from './core-context.ts';
import { LOCAL_LABEL } from '../backend/backend-state.ts';
import { PENDING_REASONS } from '../scans/pipeline.ts';
import type { UpdateSignaturesResult } from '../engine/freshclam/run-freshclam.ts';
import { createAutoUpdate } from './auto-update.ts';
import { runSignatureUpdate } from './signature-update.ts';

export interface EngineCapability {
  /** Passed to setupBackend: the embedded service, each time it starts (null when it failed). */
  onLocalService(service: LocalServiceHandle | null): void;
  api(guard: Guard): CoreApi['protection'];
  /** Why files at this service wait for its engine now (the pipeline's pending reason), or null. */
  waitReason(serviceLabel: string): string | null;
  /** The view as last reported (no look): what the pipeline reads for each file. */
  current(): ProtectionView;
  /** Each change of the view (the pipeline updates the files' wait reasons). */
  onViewChange(listener: (view: ProtectionView) => void): () => void;
  /** "Scan with basic checks only" for these scans of the embedded service; false when it is not running. */
  allowBasicOnly(serviceScanIds: readonly string[]): boolean;
}

export function setupEngine(ctx: CoreContext): EngineCapability {
  const tuning = ctx.tuning.engine ?? {};
  let local: LocalServiceHandle | null = null;
  let unsubscribe: (() => void) | null = null;
  let view: ProtectionView = { status: null, remote: null, databaseDir: null, update: { phase: 'idle', last: null }, checkedAt: new Date().toISOString() };
  let looking: Promise<ProtectionView> | null = null;
  let again = false;
  let againAsked = false;
  let updating: Promise<SignatureUpdateOutcome> | null = null;
  let closed = false;
  const listeners = new Set<(view: ProtectionView) => void>();

  const publish = (next: ProtectionView) => {
    const { checkedAt: _a, ...before } = view;
    const { checkedAt: _b, ...after } = next;
    view = next;
    if (closed || JSON.stringify(before) === JSON.stringify(after)) return;
    for (const listener of listeners) {
      try {
        listener(next);
      } catch (error) {
        ctx.log.warn({ err: error }, 'protection listener failed');
      }
    }
  };

  const remoteUrl = (): string | null => {
    if (ctx.options.serviceOverride) return ctx.options.serviceOverride.baseUrl;
    const backend = ctx.settings.get().backend;
    return backend.kind === 'remote' ? backend.baseUrl : null;
  };

  /** `asked`: the service's engine looks again first ("Check again"); else its last report is taken. */
  async function lookOnce(asked: boolean): Promise<ProtectionView> {
    const remote = remoteUrl();
    const base = { update: view.update, checkedAt: new Date().toISOString() };
    if (remote !== null) return { ...base, status: null, remote, databaseDir: null };
    const report = local?.engineReport ? await (asked && local.checkEngine ? local.checkEngine() : local.engineReport()) : await withoutService();
    return { ...base, status: report.status, remote: null, databaseDir: report.databaseDir };
  }

  /** No embedded service runs (it could not start): what would be found, without starting anything. */
  async function withoutService(): Promise<EngineReport> {
    const service = ctx.options.localService;
    const found = await engineStatus({
      kind: service?.engine ?? 'auto',
      dataDir: ctx.dataDir,
      ...(service?.clamdSocket ? { clamdSocket: service.clamdSocket } : {}),
      ...(tuning.systemConfigPath ? { systemConfigPath: tuning.systemConfigPath } : {}),
      startOwn: false,
    });
    return { status: found.status, databaseDir: found.databaseDir };
  }

  /** One look at a time; a request during a look is answered by one more look after it. */
  function look(asked = false): Promise<ProtectionView> {
    if (looking) {
      again = true;
      againAsked ||= asked;
      return looking;
    }
    looking = lookOnce(asked)
      .then((next) => {
        publish({ ...next, update: view.update });
        return view;
      })
      .finally(() => {
        looking = null;
        if (again && !closed) {
          again = false;
          const asked = againAsked;
          againAsked = false;
          void look(asked);
        }
      });
    return looking;
  }

  const autoUpdate = createAutoUpdate({
    dataDir: ctx.dataDir,
    enabled: () => tuning.autoUpdate !== false && ctx.settings.get().autoUpdateSignatures,
    run: (onResult) => updateSignatures(onResult),
  });
  listeners.add((next) => autoUpdate.reconsider(next));
  ctx.settings.onChange(() => autoUpdate.reconsider(view));
  ctx.onClose(() => {
    closed = true;
    unsubscribe?.();
    autoUpdate.stop();
  });
  followSettings(ctx, () => local, () => void look().catch(() => undefined));

  const updateSignatures = (onResult?: (result: UpdateSignaturesResult) => void): Promise<SignatureUpdateOutcome> => {
    if (updating) return updating;
    const last = view.update.last;
    publish({ ...view, update: { phase: 'running', line: null, last } });
    updating = runSignatureUpdate({
      dataDir: ctx.dataDir,
      status: view.status,
      remote: view.remote !== null,
      ...tuning.freshclam,
      onProgress: (line) => publish({ ...view, update: { phase: 'running', line, last } }),
      ...(onResult ? { onResult } : {}),
    }).then(
      async (outcome) => {
        updating = null;
        publish({ ...view, update: { phase: 'idle', last: outcome } });
        ctx.log.info({ outcome: outcome.code }, 'signature update');
        await look(true).catch(() => undefined);
        return outcome;
      },
      (error: unknown) => {
        updating = null;
        publish({ ...view, update: { phase: 'idle', last } });
        throw error;
      },
    );
    return updating;
  };

  return {
    current: () => view,
    waitReason(serviceLabel) {
      const status = view.remote === null && serviceLabel === LOCAL_LABEL ? view.status : null;
      if (status?.reason.code === 'clamd_starting') return PENDING_REASONS.engineStarting;
      // not_running: ClamAV is expected there; the service holds its files until it answers (or their limit).
      return status?.state === 'not_running' ? PENDING_REASONS.engineWaiting : null;
    },
    onViewChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    allowBasicOnly: (serviceScanIds) => sendBasicOnly(local, serviceScanIds),
    onLocalService(service) {
      unsubscribe?.();
      local = service;
      unsubscribe = service?.onEngineReport?.(() => void look().catch(() => undefined)) ?? null;
      void look().catch((error: unknown) => ctx.log.warn({ err: error }, 'protection state'));
    },
    api: (guard) => ({
      status: () => guard('protection.status', async () => ok(view.status === null && view.remote === null ? await look() : view)),
      refresh: () => guard('protection.refresh', async () => ok(await look(true))),
      updateSignatures: () => guard('protection.updateSignatures', async () => ok(await updateSignatures())),
      onChange(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    }),
  };
}

function followSettings(ctx: CoreContext, local: () => LocalServiceHandle | null, look: () => void): void {
  // A switch between the embedded and a remote service changes whose engine it is.
  ctx.settings.onChange(look);
  // The database folder takes effect while running: Verdict's own clamd starts again on it
  // (its states come back as engine reports). `--clamav-db` of this run wins over the setting.
  ctx.settings.onChange((next, previous) => {
    if (next.clamavDatabaseDir === previous.clamavDatabaseDir || ctx.options.localService?.clamavDb !== undefined) return;
    local()?.setDatabaseDir?.(next.clamavDatabaseDir);
  });
  // The detection settings (issue 28 §2) too: clamd reads them only at start.
  ctx.settings.onChange((next, previous) => {
    if (JSON.stringify(next.detection) !== JSON.stringify(previous.detection)) local()?.setDetection?.(next.detection);
  });
}

function sendBasicOnly(local: LocalServiceHandle | null, serviceScanIds: readonly string[]): boolean {
  if (!local?.allowBasicOnly) return false;
  local.allowBasicOnly(serviceScanIds);
  return true;
}

// The core's protection capability: the state of the engine the default service
// uses (the embedded service's engine, or none of Verdict's with a remote service),
// looked at again every minute, when asked, when the service restarts and after a
// signature update; "Update signatures now"; and an event whenever the view changes.
import type { CoreApi } from '../../shared/bridge/api.ts';
import { protectionStatus } from '../../shared/engine/protection-state.ts';
import type { ProtectionView, SignatureUpdateOutcome } from '../../shared/engine/protection-view.ts';
import { ok } from '../../shared/result.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import type { EngineDescription } from '../local-service/engines/select-engine.ts';
import type { CoreContext, Guard } from './core-context.ts';
import { gatherEngineFacts } from './engine-facts.ts';
import { runSignatureUpdate } from './signature-update.ts';

export const ENGINE_RECHECK_MS = 60_000;

export interface EngineCapability {
  /** Passed to setupBackend: the engine the embedded service picked, each time it starts. */
  onLocalEngine(engine: EngineDescription | null): void;
  api(guard: Guard): CoreApi['protection'];
}

export function setupEngine(ctx: CoreContext): EngineCapability {
  const tuning = ctx.tuning.engine ?? {};
  let localEngine: EngineDescription | null = null;
  let view: ProtectionView = { status: null, remote: null, databaseDir: null, update: { phase: 'idle', last: null }, checkedAt: new Date().toISOString() };
  let looking: Promise<ProtectionView> | null = null;
  let again = false;
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

  async function lookOnce(): Promise<ProtectionView> {
    const remote = remoteUrl();
    const base = { update: view.update, checkedAt: new Date().toISOString() };
    if (remote !== null) return { ...base, status: null, remote, databaseDir: null };
    const gathered = await gatherEngineFacts({
      engine: localEngine,
      kind: ctx.options.localService?.engine ?? 'auto',
      ...(ctx.options.localService?.clamdSocket ? { configuredSocket: ctx.options.localService.clamdSocket } : {}),
      dataDir: ctx.dataDir,
      ...(tuning.systemConfigPath ? { systemConfigPath: tuning.systemConfigPath } : {}),
    });
    return { ...base, status: protectionStatus(gathered.facts, new Date(), MAX_ASYNC_FILE_SIZE), remote: null, databaseDir: gathered.databaseDir };
  }

  /** One look at a time; a request during a look is answered by one more look after it. */
  function look(): Promise<ProtectionView> {
    if (looking) {
      again = true;
      return looking;
    }
    looking = lookOnce()
      .then((next) => {
        publish({ ...next, update: view.update });
        return view;
      })
      .finally(() => {
        looking = null;
        if (again && !closed) {
          again = false;
          void look();
        }
      });
    return looking;
  }

  const timer = setInterval(() => void look().catch(() => undefined), tuning.recheckMs ?? ENGINE_RECHECK_MS);
  timer.unref?.();
  ctx.onClose(() => {
    closed = true;
    clearInterval(timer);
  });
  // A switch between the embedded and a remote service changes whose engine it is.
  ctx.settings.onChange(() => void look().catch(() => undefined));

  const updateSignatures = (): Promise<SignatureUpdateOutcome> => {
    if (updating) return updating;
    const last = view.update.last;
    publish({ ...view, update: { phase: 'running', line: null, last } });
    updating = runSignatureUpdate({
      dataDir: ctx.dataDir,
      status: view.status,
      remote: view.remote !== null,
      ...tuning.freshclam,
      onProgress: (line) => publish({ ...view, update: { phase: 'running', line, last } }),
    }).then(
      async (outcome) => {
        updating = null;
        publish({ ...view, update: { phase: 'idle', last: outcome } });
        ctx.log.info({ outcome: outcome.code }, 'signature update');
        await look().catch(() => undefined);
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
    onLocalEngine(engine) {
      localEngine = engine;
      void look().catch((error: unknown) => ctx.log.warn({ err: error }, 'protection state'));
    },
    api: (guard) => ({
      status: () => guard('protection.status', async () => ok(view.status === null && view.remote === null ? await look() : view)),
      refresh: () => guard('protection.refresh', async () => ok(await look())),
      updateSignatures: () => guard('protection.updateSignatures', async () => ok(await updateSignatures())),
      onChange(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    }),
  };
}

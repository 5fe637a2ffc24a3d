// The core's recheck after a signature update (electron/recheck/): its store on the history
// file, what every finished scan teaches it, the recheck job's walk (given to the jobs before
// they resume), then the trigger on signature changes once the jobs run.
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import type { History } from '../history/history.ts';
import type { SeenFile } from '../history/recheck-candidates.ts';
import type { Quarantine } from '../quarantine/quarantine.ts';
import { createQuarantineRecheck, type QuarantineRecheck } from '../recheck/quarantine-recheck.ts';
import type { ServiceClient } from '../service-client/client.ts';
import type { Jobs, JobsInput } from '../jobs/jobs.ts';
import { mainsPower } from '../jobs/schedule/power.ts';
import { createRecheck, type Recheck } from '../recheck/recheck.ts';
import { recheckWalk } from '../recheck/recheck-walk.ts';
import { createSeenFiles, type RecheckFinding } from '../recheck/seen-files.ts';
import { signaturesInUse } from '../recheck/signatures-in-use.ts';
import type { ScanEvents } from '../scans/events.ts';
import type { CoreContext } from './core-context.ts';

export interface RecheckSetup {
  walks: NonNullable<JobsInput['walks']>;
  /** The quarantine judged again after a change (and by `verdict recheck`). */
  quarantine: QuarantineRecheck;
  /** Once the jobs run: the trigger (automatic unless the tuning turns it off). */
  start(jobs: Jobs): Recheck;
  /** Resolves once every finished scan offered so far is remembered (tests). */
  idle(): Promise<void>;
}

export interface RecheckSetupInput {
  history: History;
  events: ScanEvents;
  engine: { current(): ProtectionView; onViewChange(listener: (view: ProtectionView) => void): () => void };
  quarantine: Pick<Quarantine, 'list' | 'get' | 'storedFile'>;
  /** The embedded service's client (the engine in use), or null. */
  localClient: () => Pick<ServiceClient, 'submitAndResolve'> | null;
  /** Files the scan pipeline holds now (the recheck gives way to others). */
  filesInFlight?: () => number;
}

export function prepareRecheck(ctx: CoreContext, input: RecheckSetupInput): RecheckSetup {
  const { files: store, quarantine: judgements } = input.history.recheck;
  const stopQuarantine = new AbortController();
  ctx.onClose(() => stopQuarantine.abort());
  const quarantine = createQuarantineRecheck({ quarantine: input.quarantine, judgements, client: input.localClient, now: Date.now });
  const selected = new Map<number, Map<string, SeenFile>>();
  const keys = new Map<number, string>();
  const findings = new Set<(finding: RecheckFinding) => void>();
  const seen = createSeenFiles({
    store,
    selected,
    keys,
    windowStart: () => {
      const days = ctx.settings.get().recheckAfterUpdateDays;
      return days > 0 ? Date.now() - days * 86_400_000 : null;
    },
    onFinding: (finding) => {
      ctx.log.warn({ scanId: finding.record.id, previousId: finding.previousId, detailed: finding.record.detailed }, 'a file judged clean before is detected now');
      for (const listener of [...findings]) listener(finding);
    },
    onError: (error) => ctx.log.warn({ err: error }, 'the recheck could not remember a scan'),
  });
  const unsubscribe = input.events.subscribe((event) => {
    if (event.type === 'record') seen.offer(event.record);
  });
  ctx.onClose(async () => {
    unsubscribe();
    await seen.idle();
  });
  const windowDays = () => ctx.settings.get().recheckAfterUpdateDays;
  const walk = recheckWalk({ store, keyNow: () => signaturesInUse(input.engine.current()), windowDays, now: Date.now, selected, keys, ...(input.filesInFlight ? { filesInFlight: input.filesInFlight } : {}) });
  return {
    walks: { recheck: walk },
    quarantine,
    idle: () => seen.idle(),
    start(jobs) {
      const recheck = createRecheck({
        store,
        jobs,
        unfinished: () => input.history.jobs.unfinished(),
        record: (id) => input.history.get(id),
        view: () => input.engine.current(),
        onViewChange: (listener) => input.engine.onViewChange(listener),
        settings: () => ctx.settings.get(),
        power: ctx.options.power ?? mainsPower,
        now: Date.now,
        selected,
        findings,
        log: ctx.log,
        // Not in a CLI run (schedules off): a `scan` never starts another job; `verdict recheck` starts its own.
        automatic: ctx.tuning.recheck?.automatic ?? ctx.tuning.schedules !== false,
        afterChange: (key) =>
          quarantine.run(key, stopQuarantine.signal).catch((error: unknown) => ctx.log.warn({ err: error }, 'the quarantine could not be judged again')),
        ...(ctx.tuning.recheck?.settleMs !== undefined ? { settleMs: ctx.tuning.recheck.settleMs } : {}),
      });
      ctx.onClose(() => recheck.close());
      return recheck;
    },
  };
}

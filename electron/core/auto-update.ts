// Automatic signature updates: while Verdict's own database folder is the one in use
// and the setting allows it, "Update signatures now" runs at start and every 12 hours
// (update-schedule.ts, which waits out freshclam's cool-down). Anything else (a system
// clamd, the built-in engine, a remote service, the setting off) stops the schedule.
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import type { UpdateSignaturesResult } from '../engine/freshclam/run-freshclam.ts';
import { scheduleSignatureUpdates, type SignatureUpdateSchedule } from '../engine/freshclam/update-schedule.ts';
import { ownDatabaseDir } from '../engine/own-clamd/find-clamav.ts';

export interface AutoUpdate {
  /** Looks at the view and the setting again: starts or stops the schedule. */
  reconsider(view: ProtectionView): void;
  /** When the next automatic run is due (ms since the epoch), null while there is none. */
  readonly nextRunAt: number | null;
  stop(): void;
}

export function createAutoUpdate(input: {
  dataDir: string;
  enabled: () => boolean;
  /** Runs one update the way "Update signatures now" does; reports freshclam's own result, when it ran. */
  run: (onResult: (result: UpdateSignaturesResult) => void) => Promise<unknown>;
  intervalMs?: number;
}): AutoUpdate {
  let schedule: SignatureUpdateSchedule | null = null;
  const ownFolder = ownDatabaseDir(input.dataDir);

  const update = async (): Promise<UpdateSignaturesResult> => {
    let result: UpdateSignaturesResult = { ok: false, problem: 'spawn_failed', detail: 'freshclam did not run' };
    await input.run((raw) => (result = raw));
    return result;
  };

  const stop = () => {
    schedule?.stop();
    schedule = null;
  };

  return {
    reconsider(view) {
      const ownInUse = view.remote === null && view.status?.engine.source === 'own' && view.databaseDir === ownFolder;
      if (!ownInUse || !input.enabled()) return stop();
      schedule ??= scheduleSignatureUpdates({ update, ...(input.intervalMs !== undefined ? { intervalMs: input.intervalMs } : {}) });
    },
    get nextRunAt() {
      return schedule?.nextRunAt ?? null;
    },
    stop,
  };
}

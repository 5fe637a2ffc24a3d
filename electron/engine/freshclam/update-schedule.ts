// Automatic signature updates for Verdict's own database: one at start, then every
// 12 hours; after the CDN put freshclam on cool-down, not before that ends. One run
// at a time: "Update now" during a run joins it. The setting that turns automatic
// updates off simply does not create the schedule.
import type { UpdateSignaturesResult } from './run-freshclam.ts';

export const UPDATE_INTERVAL_MS = 12 * 3_600_000;

export interface SignatureUpdateSchedule {
  /** Runs an update now (or joins the one running) and plans the next from its outcome. */
  runNow(): Promise<UpdateSignaturesResult>;
  /** When the next automatic run is due (ms since the epoch), null once stopped. */
  readonly nextRunAt: number | null;
  stop(): void;
}

export function scheduleSignatureUpdates(options: {
  update: () => Promise<UpdateSignaturesResult>;
  intervalMs?: number;
  onResult?: (result: UpdateSignaturesResult) => void;
}): SignatureUpdateSchedule {
  const interval = options.intervalMs ?? UPDATE_INTERVAL_MS;
  let timer: NodeJS.Timeout | null = null;
  let nextRunAt: number | null = null;
  let running: Promise<UpdateSignaturesResult> | null = null;
  let stopped = false;

  const plan = (at: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    nextRunAt = at;
    timer = setTimeout(() => void runNow(), Math.max(0, at - Date.now()));
    timer.unref?.();
  };

  const runNow = (): Promise<UpdateSignaturesResult> => {
    if (running) return running;
    running = options.update().then(
      (result) => {
        running = null;
        plan(Math.max(Date.now() + interval, coolDownEnd(result) ?? 0));
        options.onResult?.(result);
        return result;
      },
      (error: unknown) => {
        running = null;
        plan(Date.now() + interval);
        throw error;
      },
    );
    return running;
  };

  plan(Date.now());
  return {
    runNow,
    get nextRunAt() {
      return nextRunAt;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      nextRunAt = null;
    },
  };
}

/** freshclam prints the end of its cool-down in local time, `2026-11-24 16:05:00`. */
function coolDownEnd(result: UpdateSignaturesResult): number | null {
  if (!result.ok || (result.outcome.kind !== 'cool_down' && result.outcome.kind !== 'mirror_refused')) return null;
  const until = result.outcome.until;
  const match = until === null ? null : /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(until);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const at = new Date(y, mo - 1, d, h, mi, s).getTime();
  return Number.isNaN(at) ? null : at;
}

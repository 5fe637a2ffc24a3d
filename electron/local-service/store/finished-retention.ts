// The standalone service's retention, when configured (`--keep-finished-hours`): terminal
// scans completed longer ago than the retention are deleted, now and then. Its clients
// cannot say what they have recorded (the embedded service hears it from the app instead:
// ScanStore.forgetRecorded), so the retention is a time the operator promises its
// clients fetch a verdict within. Without it the service keeps every scan (the default).
import type { ServiceLogger } from '../logger.ts';
import type { ScanStore } from './scan-store.ts';

/** How often the sweep runs: a quarter of the retention, between 1 s and an hour. */
export const sweepIntervalMs = (retentionMs: number): number => Math.min(3_600_000, Math.max(1_000, Math.floor(retentionMs / 4)));

/** Sweeps at once and then every sweepIntervalMs; returns the function that stops it. */
export function startFinishedScanRetention(store: ScanStore, retentionMs: number, logger: ServiceLogger, now: () => number = Date.now): () => void {
  const sweep = () => {
    try {
      const deleted = store.forgetFinishedBefore(new Date(now() - retentionMs).toISOString());
      if (deleted > 0) logger.info({ deleted }, 'finished scans past the retention deleted');
    } catch (error) {
      logger.warn({ err: error }, 'finished scans could not be deleted');
    }
  };
  sweep();
  const timer = setInterval(sweep, sweepIntervalMs(retentionMs));
  timer.unref();
  return () => clearInterval(timer);
}

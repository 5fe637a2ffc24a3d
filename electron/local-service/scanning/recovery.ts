// On start: scans a previous run left `processing` are scanned again when
// their upload survived. Without it, an async scan is failed as `interrupted`
// (its client was told it was accepted), while a sync scan is forgotten: a
// small sync upload lives only in memory until its answer (handlers/submit-scan.ts),
// nobody was told the scan exists, and the client's retry under the same
// reference submits it again. Partial uploads from interrupted requests are removed.
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isoNow } from '../clock.ts';
import type { DataDirLayout } from '../store/data-dir.ts';
import type { ScanStore, StoredScan } from '../store/scan-store.ts';
import type { ScanRunner } from './scan-runner.ts';
import { INTERRUPTED } from './scan-view.ts';

export interface RecoveryReport {
  resumed: string[];
  failed: StoredScan[];
  /** Sync scans whose answer was never sent, deleted. */
  forgotten: string[];
}

/** Called inside the transaction of each change (webhook events commit with it). */
export interface RecoveryListener {
  failed(scan: StoredScan): void;
  forgotten(scanId: string): void;
}

export async function recoverInterruptedScans(layout: DataDirLayout, store: ScanStore, runner: ScanRunner, listener?: RecoveryListener): Promise<RecoveryReport> {
  for (const name of await readdir(layout.incomingDir)) await rm(join(layout.incomingDir, name), { force: true, recursive: true });

  const report: RecoveryReport = { resumed: [], failed: [], forgotten: [] };
  const processing = store.listProcessing();
  const known = new Set(processing.map((scan) => scan.id));
  for (const scan of processing) {
    if (existsSync(layout.uploadFileOf(scan.id))) {
      runner.enqueue(scan.id);
      report.resumed.push(scan.id);
    } else if (scan.executionMode === 'sync') {
      const forgotten = store.transaction(() => {
        const done = store.forget(scan.id);
        if (done) listener?.forgotten(scan.id);
        return done;
      });
      if (forgotten) report.forgotten.push(scan.id);
    } else {
      const failed = store.transaction(() => {
        const done = store.fail(scan.id, { error: { code: INTERRUPTED, detail: null }, completedAt: isoNow(), scanDurationMs: null });
        if (done) listener?.failed(done);
        return done;
      });
      if (failed) report.failed.push(failed);
    }
  }
  // Uploads whose scan is already terminal (the process stopped between recording and deleting) are garbage.
  for (const name of await readdir(layout.uploadsDir)) {
    if (!known.has(name)) await rm(join(layout.uploadsDir, name), { force: true, recursive: true });
  }
  return report;
}

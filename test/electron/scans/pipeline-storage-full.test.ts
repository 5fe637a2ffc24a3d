// The history's disk fills while a file is on its way (root only: a real tmpfs under the
// history, filled for real just before the upload's commit): the file is never recorded as
// failed. Its row keeps its last committed state, the failure is reported once per file, and
// a pipeline opened again on the same history once there is room finishes it. Real service,
// client, history, fingerprint and intake.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceConnection, type ServiceConnection } from '../../../electron/backend/backend.ts';
import { isDiskFull } from '../../../electron/core/disk-full.ts';
import { fingerprintFile } from '../../../electron/fingerprint/fingerprint.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';
import { createScanEvents, type ScanEvents } from '../../../electron/scans/events.ts';
import { createScanPipeline, type ScanPipeline } from '../../../electron/scans/pipeline.ts';
import { FAST, startTestService, tempDir, until, type TestService } from './harness.ts';

const CAN_MOUNT = process.getuid?.() === 0;

let dir: Awaited<ReturnType<typeof tempDir>>;
let dataDir: string;
let service: TestService;
let connection: ServiceConnection;
const opened: Array<{ pipeline: ScanPipeline; history: History; events: ScanEvents }> = [];

beforeEach(async () => {
  dir = await tempDir('verdict-storage-full-');
  dataDir = join(dir.path, 'data');
  await mkdir(dataDir);
  service = await startTestService(join(dir.path, 'service'));
  connection = createServiceConnection({ label: 'local', baseUrl: service.url, apiKey: () => service.key, poll: FAST.poll, retry: FAST.clientRetry, budget: FAST.budget });
});

afterEach(async () => {
  for (const { pipeline, history, events } of opened.splice(0)) {
    await pipeline.close();
    events.close();
    history.close();
  }
  await connection.close();
  await service.close();
  try {
    execFileSync('umount', [dataDir], { stdio: 'ignore' });
  } catch {
    execFileSync('umount', ['-l', dataDir], { stdio: 'ignore' });
  }
  await dir.remove();
});

/** Fills the disk under `folder` to the last byte. */
async function fill(folder: string): Promise<void> {
  const { bavail, bsize } = statfsSync(folder);
  await writeFile(join(folder, 'filler'), Buffer.alloc(Number(bavail) * Number(bsize))).catch(() => undefined);
}

function openPipeline(options: { fillBefore?: string; reported?: unknown[] } = {}) {
  const history = openHistory(dataDir, { commitWindowMs: 5 });
  const events = createScanEvents({ counts: () => history.counts() });
  const pipeline = createScanPipeline({
    history,
    service: () => ({ ok: true, service: connection.port }),
    backendLabel: () => 'local',
    // The disk fills just after this file is read: its upload's commit is the first write that cannot be made.
    fingerprint: async (path, signal) => {
      const digests = await fingerprintFile(path, { signal });
      if (path === options.fillBefore) await fill(dataDir);
      return digests;
    },
    intake: (paths) => expandPaths(paths),
    settings: () => ({ mode: 'auto', reuseVerdictDays: 0 }),
    installId: 'aaaabbbbccccddddeeeeffff',
    events,
    storageFailure: { is: (error) => isDiskFull(error, dataDir), report: (error) => options.reported?.push(error) },
  });
  pipeline.start();
  opened.push({ pipeline, history, events });
  return { pipeline, history };
}

describe.skipIf(!CAN_MOUNT)('the history disk fills while a file is on its way', () => {
  it('leaves the file for recovery, never failed; once there is room it is scanned', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dataDir]);
    const file = join(dir.path, 'invoice.pdf');
    await writeFile(file, 'clean content');
    const reported: unknown[] = [];
    const first = openPipeline({ fillBefore: file, reported });
    const { ids } = await first.pipeline.submit([file], { origin: 'drop' });
    await until(() => reported.length > 0, 'the full disk is reported');
    expect(isDiskFull(reported[0], dataDir)).toBe(true);
    // Never "could not scan": the row is as it was last committed (queued), ready for the next start.
    expect(first.history.get(ids[0]!)).toMatchObject({ status: 'queued', error: null });

    execFileSync('mount', ['-o', 'remount,size=64m', dataDir]);
    const { pipeline: closing, history: closingHistory, events } = opened.pop()!;
    await closing.close();
    events.close();
    closingHistory.close();
    const second = openPipeline();
    await until(() => second.history.get(ids[0]!)?.status === 'completed', 'the file is scanned after the restart');
    expect(second.history.get(ids[0]!)).toMatchObject({ status: 'completed', safe: true });
  });
});

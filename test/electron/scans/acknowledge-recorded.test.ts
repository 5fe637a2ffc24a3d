// The pipeline tells a service which scans it has recorded (ServicePort.recorded, the
// embedded service's retention) only once their terminal rows are committed: read from
// another connection at the moment of each acknowledgement, the row is already terminal,
// so crash recovery (which looks up only rows that are not terminal) never asks the
// service about a scan it was allowed to forget. Sync and async scans, and a threat; real
// service, client, history, fingerprint and intake.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceConnection, type ServiceConnection } from '../../../electron/backend/backend.ts';
import { fingerprintFile } from '../../../electron/fingerprint/fingerprint.ts';
import { HISTORY_FILE_NAME, openHistory, type History } from '../../../electron/history/history.ts';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';
import { integrationIdOf } from '../../../electron/local-service/auth/api-keys.ts';
import { createScanEvents, type ScanEvents } from '../../../electron/scans/events.ts';
import { createScanPipeline, type ScanPipeline } from '../../../electron/scans/pipeline.ts';
import { FAST, startTestService, tempDir, until, writeEicar, writeFiles, type TestService } from './harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
let history: History;
let events: ScanEvents;
let connection: ServiceConnection;
let pipeline: ScanPipeline;
/** Each acknowledged scan id, with its history row's status as committed when it was acknowledged. */
let acknowledged: Array<{ scanId: string; committedStatus: string | null }>;

/** The committed status of the row that points at this service scan (another connection sees only commits). */
function committedStatus(scanId: string): string | null {
  const db = new DatabaseSync(join(dir.path, 'data', HISTORY_FILE_NAME), { readOnly: true });
  try {
    const row = db.prepare('SELECT status FROM scans WHERE service_scan_id = ?').get(scanId) as { status: string } | undefined;
    return row?.status ?? null;
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  dir = await tempDir('verdict-acknowledge-');
  // A scan takes a moment, so async ones are followed (polled) before they finish.
  service = await startTestService(join(dir.path, 'service'), { scanDelayMs: 30 });
  // A long commit window: a grouped write waits for its commit unless the acknowledgement asks for it.
  history = openHistory(join(dir.path, 'data'), { commitWindowMs: 5_000 });
  events = createScanEvents({ counts: () => history.counts() });
  acknowledged = [];
  connection = createServiceConnection({
    label: 'local',
    baseUrl: service.url,
    apiKey: () => service.key,
    poll: FAST.poll,
    retry: FAST.clientRetry,
    budget: FAST.budget,
    recorded: (scanIds) => {
      for (const scanId of scanIds) acknowledged.push({ scanId, committedStatus: committedStatus(scanId) });
      service.forgetRecorded(integrationIdOf(service.key), scanIds);
    },
  });
  pipeline = createScanPipeline({
    history,
    service: () => ({ ok: true, service: connection.port }),
    backendLabel: () => 'local',
    fingerprint: (path, signal) => fingerprintFile(path, { signal }),
    intake: (paths) => expandPaths(paths),
    settings: () => ({ mode: 'auto', reuseVerdictDays: 0 }),
    installId: 'aaaabbbbccccddddeeeeffff',
    events,
  });
  pipeline.start();
});

afterEach(async () => {
  await pipeline.close();
  await connection.close();
  events.close();
  history.close();
  await service.close();
  await dir.remove();
});

describe('acknowledging recorded scans', () => {
  it.each(['sync', 'async'] as const)('acknowledges each %s scan once, after its terminal row is committed', async (mode) => {
    const folder = join(dir.path, 'files');
    await mkdir(folder, { recursive: true });
    const files = [...(await writeFiles(folder, 8)), await writeEicar(join(folder, 'eicar.com'))];
    const { ids } = await pipeline.submit(files, { origin: 'drop', mode });
    await pipeline.idle();
    await until(() => acknowledged.length >= files.length, 'every scan to be acknowledged');

    const scanIds = ids.map((id) => history.get(id)?.serviceScanId);
    expect(scanIds.every((scanId) => typeof scanId === 'string')).toBe(true);
    expect(acknowledged.map((entry) => entry.scanId).sort()).toEqual([...(scanIds as string[])].sort());
    for (const entry of acknowledged) expect(entry.committedStatus, entry.scanId).toBe('completed');
    expect(ids.map((id) => history.get(id)?.safe).filter((safe) => safe === false)).toHaveLength(1);
    // The service forgot them all: nothing is left for a file that is recorded.
    expect(service.scanCount()).toBe(0);
  });
});

// Earlier verdicts not reused because the engine changed are logged once per reason and
// engine, not once per file: a rescan of a home folder after a signature update would
// otherwise write a line for each of its files. Each file still gets its own verdict.
// Real service (built-in engine), client, history, fingerprint and intake.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceConnection, type ServiceConnection } from '../../../electron/backend/backend.ts';
import { fingerprintFile } from '../../../electron/fingerprint/fingerprint.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { expandPaths } from '../../../electron/intake/expand-paths.ts';
import { createScanEvents, type ScanEvents } from '../../../electron/scans/events.ts';
import { createScanPipeline, type ScanPipeline } from '../../../electron/scans/pipeline.ts';
import type { EngineNow } from '../../../electron/scans/pipeline/options.ts';
import type { EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { FAST, startTestService, tempDir, writeFiles, type TestService } from './harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
let history: History;
let events: ScanEvents;
let connection: ServiceConnection;
let pipeline: ScanPipeline;
let engineNow: EngineNow;
let lines: Array<{ message: string; fields: Record<string, unknown> | undefined }>;

const clamav = (version: string): EngineIdentity => ({ name: 'clamav', version, signatures: { version: 27_000, date: '2026-11-01T00:00:00.000Z' } });

beforeEach(async () => {
  dir = await tempDir('verdict-reuse-log-');
  service = await startTestService(join(dir.path, 'service'));
  history = openHistory(join(dir.path, 'data'));
  events = createScanEvents({ counts: () => history.counts() });
  connection = createServiceConnection({ label: 'local', baseUrl: service.url, apiKey: () => service.key, poll: FAST.poll, retry: FAST.clientRetry, budget: FAST.budget });
  engineNow = { ours: false };
  lines = [];
  const record = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields });
  pipeline = createScanPipeline({
    history,
    service: () => ({ ok: true, service: connection.port }),
    backendLabel: () => 'local',
    fingerprint: (path, signal) => fingerprintFile(path, { signal }),
    intake: (paths) => expandPaths(paths),
    settings: () => ({ mode: 'auto', reuseVerdictDays: 30 }),
    installId: 'aaaabbbbccccddddeeeeffff',
    events,
    engineNow: () => Promise.resolve(engineNow),
    log: { info: record, warn: record, error: record },
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

/** Copies of the files (the same content) in a new folder, scanned; their records. */
async function scanCopies(originals: string[], folder: string) {
  await mkdir(join(dir.path, folder));
  const copies = originals.map((file, i) => join(dir.path, folder, `copy-${i}.txt`));
  for (const [i, file] of originals.entries()) await copyFile(file, copies[i]!);
  const { ids } = await pipeline.submit(copies, { origin: 'drop' });
  await pipeline.idle();
  return ids.map((id) => history.get(id));
}

const refusals = () => lines.filter((line) => line.message.startsWith('earlier verdict not reused'));

describe('verdicts not reused after the engine changed', () => {
  it('are logged once per reason and engine, while each file gets its own verdict', async () => {
    await mkdir(join(dir.path, 'first'));
    const originals = await writeFiles(join(dir.path, 'first'), 6);
    await pipeline.submit(originals, { origin: 'drop' });
    await pipeline.idle();

    // Verdict's own engine is now ClamAV: the built-in engine's clean verdicts do not stand.
    engineNow = { ours: true, engine: clamav('1.4.3') };
    const second = await scanCopies(originals, 'second');
    expect(second.map((record) => [record?.status, record?.reuseKind ?? null])).toEqual(originals.map(() => ['completed', null]));
    expect(refusals()).toHaveLength(1);
    expect(refusals()[0]?.fields).toMatchObject({ why: 'other_engine' });

    // Another ClamAV: told once more.
    engineNow = { ours: true, engine: clamav('1.4.4') };
    const third = await scanCopies(originals, 'third');
    expect(third.every((record) => record?.status === 'completed' && record.reuseKind == null)).toBe(true);
    expect(refusals()).toHaveLength(2);
  });
});

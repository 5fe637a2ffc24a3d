// The local engine path (issue 26): with nothing configured, the core hands each file to
// the embedded service's engine as a message to its thread, with no HTTP request. Real
// core, real engines (the built-in one, and a real clamd): the records must read as they
// do when the same files are uploaded to the same service over HTTP, errors worded alike.
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, openSync, utimesSync, writeSync } from 'node:fs';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, test } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { startClamd, TEST_SIGNATURES } from '../../support/clamd.ts';
import { unreadableFile } from '../../support/unreadable-file.ts';
import { FAST, writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-local-engine-');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Scans the paths (`force`: again, verdicts not reused) and returns their records in the order given. */
async function scan(core: CoreInternals, paths: string[], force = false): Promise<ScanRecord[]> {
  const submitted = value(await core.submit(paths, { origin: 'cli', force }));
  await core.idle();
  return Promise.all(submitted.ids.map(async (id) => value(await core.scans.get(id))));
}

/**
 * What a record says about its verdict, whichever way the file reached the engine. clamd's own words
 * for a refused stream depend on when it closes the connection, so the engine's detail is left out.
 */
const verdictOf = (record: ScanRecord) => ({
  fileName: record.fileName,
  status: record.status,
  safe: record.safe,
  detailed: record.detailed,
  findings: record.findings,
  engine: record.engine,
  error: record.error && { code: record.error.code, message: record.error.message.replace(/(Engine detail|Angabe der Engine): .*$/s, '$1: …') },
  fileType: record.fileType,
  backend: record.backend,
  sha256: record.sha256,
});

async function filesDir(): Promise<string> {
  const dir = join(fixture.dir.path, 'files');
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A core on its own data dir, sending its files to the embedded engine the given way. */
function openCore(path: 'engine' | 'http', localService: { engine: 'builtin' | 'clamd'; clamdSocket?: string }): Promise<CoreInternals> {
  return fixture.open(FAST, { dataDir: join(fixture.dir.path, `data-${path}`), localService: { ...localService, path } });
}

/** The scans the embedded service holds in its own database. */
function serviceScans(core: CoreInternals): number {
  const db = new DatabaseSync(join(core.dataDir, 'local-service', 'local-service.sqlite'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe('the local engine path', () => {
  test('built-in engine: EICAR found, clean files clean, an unreadable file failed, as over HTTP; no HTTP request reaches the service', async () => {
    const dir = await filesDir();
    const clean = join(dir, 'clean.txt');
    await writeFile(clean, 'nothing to see here\n');
    // Over the fingerprinter's single read: the engine reads this one by its path.
    const large = join(dir, 'large.bin');
    await writeFile(large, Buffer.alloc(3 * 1024 * 1024, 7));
    const eicar = await writeEicar(join(dir, 'eicar.com'));
    const writeOnly = await unreadableFile();
    const paths = [clean, large, eicar, ...(writeOnly ? [writeOnly] : [])];

    const core = await fixture.open();
    // The service runs (and listens) all the same.
    expect(core.localServiceUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const records = await scan(core, paths);
    expect(records.map((record) => [record.status, record.safe])).toEqual([
      ['completed', true],
      ['completed', true],
      ['completed', false],
      ...(writeOnly ? [['failed', null]] : []),
    ]);
    expect(records[0]).toMatchObject({ backend: 'local', engine: { name: 'builtin' }, fileType: 'text/plain', error: null });
    expect(records[0]?.serviceScanId).toMatch(/^[0-9a-f-]{36}$/);
    expect(records[2]?.findings).toEqual([expect.objectContaining({ engine: 'builtin' })]);
    expect(core.backendStats()).toMatchObject({ label: 'local', requests: 0, polls: 0 });
    expect(serviceScans(core)).toBe(0);

    const overHttp = await openCore('http', { engine: 'builtin' });
    const uploaded = await scan(overHttp, paths);
    expect(overHttp.backendStats().requests).toBeGreaterThan(0);
    expect(records.map(verdictOf)).toEqual(uploaded.map(verdictOf));
  });

  test('a real clamd: the same verdicts as over HTTP; a file over StreamMaxLength reaches clamd by descriptor, not as a stream', async (context) => {
    // A small StreamMaxLength: a file over it that is streamed is an engine error (engine_size_limit).
    const clamd = await startClamd({ streamMaxLength: '16K' });
    if (!clamd) return context.skip();
    fixture.onCleanup(() => clamd.stop());
    const dir = await filesDir();
    const clean = join(dir, 'clean.txt');
    await writeFile(clean, 'nothing to see here\n');
    const eicar = await writeEicar(join(dir, 'eicar.com'));
    // Over the limit: one the app holds in memory, one read by its path. On the engine path both reach clamd by
    // descriptor (clamd reads them itself: StreamMaxLength limits only streams) and are scanned whole. Over HTTP the
    // service streams the small upload it holds in memory (engine_size_limit) and passes the large one's file.
    const overSmall = join(dir, 'over-small.bin');
    await writeFile(overSmall, Buffer.alloc(64 * 1024, 1));
    const overLarge = join(dir, 'over-large.bin');
    await writeFile(overLarge, Buffer.alloc(2 * 1024 * 1024, 2));
    const paths = [clean, eicar, overSmall, overLarge];

    const results = new Map<string, ScanRecord[][]>();
    for (const path of ['engine', 'http'] as const) {
      const core = await openCore(path, { engine: 'clamd', clamdSocket: clamd.socketPath });
      const english = await scan(core, paths);
      value(await core.settings.update({ language: 'de' }));
      const german = await scan(core, paths, true);
      results.set(path, [english, german]);
      if (path === 'engine') expect(core.backendStats().requests).toBe(0);
      await core.close();
    }
    const [english, german] = results.get('engine') ?? [];
    const [englishHttp, germanHttp] = results.get('http') ?? [];
    expect(english?.map((record) => [record.status, record.safe])).toEqual([
      ['completed', true],
      ['completed', false],
      ['completed', true],
      ['completed', true],
    ]);
    expect(english?.[1]).toMatchObject({ findings: [{ name: TEST_SIGNATURES.eicar, engine: 'clamd' }], engine: { name: 'clamav' } });
    expect(englishHttp?.[2]?.error?.code).toBe('engine_size_limit');
    expect(germanHttp?.[2]?.error?.message).not.toBe(englishHttp?.[2]?.error?.message);
    const sameWay = (records: ScanRecord[] | undefined) => records?.filter((_, index) => index !== 2).map(verdictOf);
    expect(sameWay(english)).toEqual(sameWay(englishHttp));
    expect(sameWay(german)).toEqual(sameWay(germanHttp));
  });

  // Changed from the core's progress event, raised as the file is handed to the engine: after it was hashed, before
  // the engine reads it. Larger than the 1 MiB a fingerprint keeps in memory, so the engine reads it by its path.
  test.for([
    { change: 'grows', outcome: 'completed' },
    { change: 'is rewritten in place, keeping its size and mtime', outcome: 'file_changed' },
  ] as const)('a file that $change after it was hashed: $outcome, never the other content\'s verdict', async ({ change, outcome }) => {
    const size = 3 * 1024 * 1024;
    const path = join(await filesDir(), 'changing.bin');
    await writeFile(path, Buffer.alloc(size, 0x5a));
    const mtime = Math.floor(Date.now() / 1000) - 3600;
    await utimes(path, mtime, mtime);
    const sha256 = async () => createHash('sha256').update(await readFile(path)).digest('hex');
    const before = await sha256();
    const core = await fixture.open();
    let handedOver = 0;
    const off = core.onEvent((event) => {
      if (event.type !== 'progress' || handedOver++ > 0) return;
      if (change === 'grows') appendFileSync(path, 'appended after the hash\n');
      else {
        const handle = openSync(path, 'r+');
        writeSync(handle, Buffer.from('rewritten in place'), 0, 18, size - 18);
        closeSync(handle);
        utimesSync(path, mtime, mtime);
      }
    });
    fixture.onCleanup(off);
    const [row] = await scan(core, [path]);
    const after = await sha256();
    expect(after).not.toBe(before);
    if (outcome === 'completed') {
      // Read and handed over again: the verdict and digests are those of what the file holds now.
      expect(row).toMatchObject({ status: 'completed', safe: true, sha256: after, size: size + 24 });
      expect(handedOver).toBe(2);
    } else {
      expect(row).toMatchObject({ status: 'failed', safe: null, sha256: before, error: { code: 'file_changed' } });
      expect(handedOver).toBe(1);
    }
    expect(core.backendStats().requests).toBe(0);
  });
});

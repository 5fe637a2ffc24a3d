// Bad input through the core (issue 7): each case ends in a history record with
// a specific error code and a message the UI can show — or scans fine when it
// should — and nothing else in the same batch is affected. Uses the default
// backend (the embedded local service, built-in engine).
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, openSync, utimesSync, writeSync } from 'node:fs';
import { mkdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type Server } from 'node:net';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import { startLocalService } from '../../../electron/local-service/server.ts';
import { GatedEngine } from '../local-service/harness.ts';
import { tempDir } from '../scans/harness.ts';
import { MiB } from '../../support/process-memory.ts';
import { writeSizedFile } from '../../support/sized-file.ts';
import { unreadableFile } from '../../support/unreadable-file.ts';
import { isTerminal, until, waitForBatch, writeBatch } from './pipeline-kit.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: CoreInternals;
const cleanups: Array<() => unknown> = [];

/** A file of exactly `size` bytes (real blocks, not sparse). */
const fileOfSize = (path: string, size: number): Promise<string> => writeSizedFile(path, size, Buffer.alloc(MiB, 0x5a));

async function submitAndSettle(paths: string[], mode?: 'sync' | 'async' | 'auto'): Promise<Map<string, ScanRecord>> {
  const submitted = await core.submit(paths, { origin: 'drop', mode });
  if (!submitted.ok) throw new Error(submitted.error.message);
  const rows = await waitForBatch(core, submitted.value.ids, isTerminal, 120_000);
  return new Map(rows.map((row) => [row.path, row]));
}

/** Live main-thread heap after a full collection (gc exposed at run time: vitest's workers start without it). */
function liveHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
const sha256 = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');

/** A modification time in whole seconds, an hour ago: a write shows as a change, and restoring it is exact. */
const OLD_MTIME_S = Math.floor(Date.now() / 1000) - 3600;

/** The embedded service's scans under one reference, read from its database (`data`: the core's data dir's name). */
function embeddedScans(reference: string, data = 'data'): Array<{ status: string; sha256: string | null }> {
  const db = new DatabaseSync(join(dir.path, data, 'local-service', 'local-service.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT status, sha256 FROM scans WHERE external_reference_id = ?').all(reference).map((row) => ({ ...row })) as Array<{
      status: string;
      sha256: string | null;
    }>;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = await tempDir('verdict-reliability-bad-input-');
  // retention 'keep': the tests read what the embedded service holds after the history recorded it.
  core = await createCore({ dataDir: join(dir.path, 'data'), localService: { engine: 'builtin', retention: 'keep' } }, { watch: false, poll: { initialDelayMs: 50, maxDelayMs: 300 } });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await core?.close();
  await dir?.remove();
});

describe('odd files and names in one batch', () => {
  it('each gets its own clear outcome; the good files next to them scan normally', async () => {
    const root = join(dir.path, 'batch');
    const outside = join(dir.path, 'outside');
    await mkdir(root);
    await mkdir(outside);
    const good = await writeBatch(root, 3, 1024, 'good');
    const p = (name: string) => join(root, name);

    await writeFile(p('empty.txt'), '');
    await mkdir(p('folder/sub'), { recursive: true });
    await writeFile(p('folder/a.txt'), 'a');
    await writeFile(p('folder/sub/b.txt'), 'b');
    execFileSync('mkfifo', [p('a-fifo')]);
    const socketServer: Server = createNetServer();
    await new Promise<void>((resolve) => socketServer.listen(p('a-socket'), resolve));
    cleanups.push(() => new Promise((resolve) => socketServer.close(resolve)));
    await writeFile(join(outside, 'target.txt'), 'outside the dropped folder\n');
    await symlink(join(outside, 'target.txt'), p('link-to-outside'));
    await symlink(p('loop-b'), p('loop-a'));
    await symlink(p('loop-a'), p('loop-b'));
    await symlink(p('nowhere'), p('broken-link'));
    const names = [
      'with  spaces .txt',
      `quote"s and 'single' \`back\`.txt`,
      'new\nline\r.txt',
      'emoji 😀🦠.txt',
      'שלום עולם.txt',
      'invoice\u202Efdp.exe',
      `${'n'.repeat(251)}.txt`, // 255 bytes
      `${'é'.repeat(125)}.txt`, // 254 bytes in UTF-8
    ];
    for (const name of names) await writeFile(p(name), `content of ${name}\n`);
    // A deep path: 60 levels, about 3,000 characters.
    let deep = p('deep');
    for (let i = 0; i < 60; i++) deep = join(deep, `level-${String(i).padStart(2, '0')}-${'d'.repeat(40)}`);
    await mkdir(deep, { recursive: true });
    await writeFile(join(deep, 'deep.txt'), 'deep\n');

    const inputs = [
      ...good,
      p('empty.txt'),
      p('folder'),
      p('a-fifo'),
      p('a-socket'),
      '/dev/null',
      p('link-to-outside'),
      p('loop-a'),
      p('broken-link'),
      p('does-not-exist.txt'),
      ...names.map(p),
      join(deep, 'deep.txt'),
    ];
    const writeOnly = await unreadableFile();
    if (writeOnly !== null) inputs.push(writeOnly);

    const submitted = await core.submit(inputs, { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    // Refused at intake (pipe, socket, device, loop, broken link, missing, unreadable): counted apart from the queued ones.
    const refused = 6 + (writeOnly !== null ? 1 : 0);
    expect(submitted.value).toMatchObject({ failed: refused, skipped: 0, queued: inputs.length + 1 - refused });
    const rows = await waitForBatch(core, submitted.value.ids, isTerminal, 120_000);
    const byPath = new Map(rows.map((row) => [row.path, row]));
    const outcome = (path: string) => {
      const row = byPath.get(path);
      if (!row) throw new Error(`no record for ${JSON.stringify(path)}: ${[...byPath.keys()].join(', ')}`);
      return row;
    };
    const expectFailed = (path: string, code: string, says: RegExp) => {
      const row = outcome(path);
      expect(row, path).toMatchObject({ status: 'failed', safe: null, error: { code } });
      expect(row.error?.message).toMatch(says);
    };
    const expectClean = (path: string) => expect(outcome(path), path).toMatchObject({ status: 'completed', safe: true, error: null });

    for (const path of good) expectClean(path);
    expectClean(p('empty.txt'));
    expect(outcome(p('empty.txt')).size).toBe(0);
    expectClean(p('folder/a.txt'));
    expectClean(p('folder/sub/b.txt'));
    expectFailed(p('a-fifo'), 'not_regular_file', /pipe|fifo/i);
    expectFailed(p('a-socket'), 'not_regular_file', /socket/i);
    expectFailed('/dev/null', 'not_regular_file', /device/i);
    expectClean(p('link-to-outside'));
    expect(outcome(p('link-to-outside')).sha256).toBe(await sha256(join(outside, 'target.txt')));
    expectFailed(p('loop-a'), 'symlink_loop', /loop|links/i);
    expectFailed(p('broken-link'), 'broken_link', /nowhere/);
    expectFailed(p('does-not-exist.txt'), 'not_found', /does-not-exist/);
    for (const name of names) {
      expectClean(p(name));
      expect(outcome(p(name)).fileName).toBe(name);
    }
    expectClean(join(deep, 'deep.txt'));
    if (writeOnly !== null) expectFailed(writeOnly, 'unreadable', /drop_caches/);
    // Nothing more than one row per file.
    expect(byPath.size).toBe(inputs.length + 1); // the folder became two files
  });
});

describe('size limits', () => {
  it('empty, 10 MB and 10 MB + 1 in sync mode: the oversize one goes async (the documented rule), all scan', async () => {
    const root = join(dir.path, 'sizes-sync');
    await mkdir(root);
    const exact = await fileOfSize(join(root, 'exactly-10MB.bin'), MAX_SYNC_FILE_SIZE);
    const over = await fileOfSize(join(root, '10MB-plus-1.bin'), MAX_SYNC_FILE_SIZE + 1);
    const byPath = await submitAndSettle([exact, over], 'sync');
    expect(byPath.get(exact)).toMatchObject({ status: 'completed', mode: 'sync', size: MAX_SYNC_FILE_SIZE });
    expect(byPath.get(over)).toMatchObject({ status: 'completed', mode: 'async', size: MAX_SYNC_FILE_SIZE + 1 });
  });

  it('exactly 100 MB scans; 100 MB + 1 fails before anything is sent, naming the limit', async () => {
    const root = join(dir.path, 'sizes-async');
    await mkdir(root);
    const exact = await fileOfSize(join(root, 'exactly-100MB.bin'), MAX_ASYNC_FILE_SIZE);
    const over = await fileOfSize(join(root, '100MB-plus-1.bin'), MAX_ASYNC_FILE_SIZE + 1);
    const small = (await writeBatch(root, 1, 100, 'neighbour'))[0] as string;
    const byPath = await submitAndSettle([exact, over, small]);
    expect(byPath.get(exact)).toMatchObject({ status: 'completed', mode: 'async', size: MAX_ASYNC_FILE_SIZE, safe: true });
    expect(byPath.get(over)).toMatchObject({ status: 'failed', error: { code: 'too_large' }, serviceScanId: null });
    expect(byPath.get(over)?.error?.message).toMatch(/100 MB/);
    expect(byPath.get(small)).toMatchObject({ status: 'completed', safe: true });
    await rm(root, { recursive: true });
  });
});

describe('files that change under the pipeline', () => {
  it('a file deleted after it was queued: not_found, the rest unaffected', async () => {
    // A service whose engine holds every scan until released keeps the queue's only slot busy.
    const engine = new GatedEngine();
    const service = await startLocalService({ apiKeys: ['gated-key-0001'], dataDir: join(dir.path, 'gated-service'), engine, rateLimit: false });
    const gatedCore = await createCore(
      { dataDir: join(dir.path, 'gated-data'), serviceOverride: { baseUrl: service.url, apiKey: 'gated-key-0001' } },
      { watch: false, concurrency: 1, poll: { initialDelayMs: 50, maxDelayMs: 200 } },
    );
    try {
      const root = join(dir.path, 'vanishing');
      await mkdir(root);
      const [first, victim, after] = await writeBatch(root, 3, 100, 'v');
      const submitted = await gatedCore.submit([first as string, victim as string, after as string], { origin: 'cli', mode: 'sync' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      await until(() => engine.started >= 1, 'the first file to be at the engine');
      await rm(victim as string);
      engine.release();
      const rows = await waitForBatch(gatedCore, submitted.value.ids);
      expect(rows.map((r) => [r.status, r.error?.code ?? null])).toEqual([
        ['completed', null],
        ['failed', 'not_found'],
        ['completed', null],
      ]);
      expect(rows[1]?.error?.message).toMatch(/no longer there|not found|disappeared/i);
    } finally {
      await gatedCore.close();
      await service.close();
    }
  });

  // Uploads to the embedded service over HTTP (the local engine path has its own case: core-local-engine.test.ts).
  let uploadCore: CoreInternals;
  beforeAll(async () => {
    uploadCore = await createCore(
      { dataDir: join(dir.path, 'data-http'), localService: { engine: 'builtin', retention: 'keep', path: 'http' } },
      { watch: false, poll: { initialDelayMs: 50, maxDelayMs: 300 } },
    );
  });
  afterAll(() => uploadCore?.close());

  // Changed from the core's progress event, which the upload raises as its first bytes (the request head) go
  // out: synchronously, so the change lands before the first byte of the file is read. Larger than the 1 MiB a
  // fingerprint keeps in memory, so the upload reads the file from disk, in 256 KiB chunks.
  it.each([
    {
      change: 'grows',
      how: (path: string) => appendFileSync(path, 'appended while it was being sent\n'),
      // The upload notices (size or mtime differ once it has read the file), cuts the body before its end so the
      // service creates no scan, and the pipeline reads the file again and sends it whole.
      outcome: 'completed',
    },
    {
      change: 'is rewritten in place, keeping its size and mtime',
      how: (path: string, size: number) => {
        const handle = openSync(path, 'r+');
        try {
          writeSync(handle, Buffer.from('rewritten in place'), 0, 18, size - 18);
        } finally {
          closeSync(handle);
        }
        utimesSync(path, OLD_MTIME_S, OLD_MTIME_S); // what `touch -r` or a sync tool preserving times leaves
      },
      // The upload cannot tell; the service's file_hash.sha256 differs from the fingerprint, and its verdict is
      // not taken for the file (failed, never safe).
      outcome: 'file_changed',
    },
  ] as const)('a file that $change during its upload: $outcome', async ({ change, how, outcome }) => {
    const path = await fileOfSize(join(dir.path, `changing-${outcome}.bin`), 8 * MiB);
    // Whole seconds: restored exactly after a rewrite (a fraction would not survive the round trip).
    await utimes(path, OLD_MTIME_S, OLD_MTIME_S);
    const before = await sha256(path);
    let id: string | null = null;
    let changedAt: number | null = null;
    let attempts = 0;
    let lastSent = Infinity;
    const off = uploadCore.onEvent((event) => {
      // Known from its first record event, which comes before any upload (submit() may answer later).
      if (event.type === 'record' && event.record.path === path) id = event.record.id;
      if (event.type !== 'progress' || event.progress.id !== id) return;
      if (event.progress.sent <= lastSent) attempts++; // within an attempt `sent` only grows; a new one starts again from its head
      lastSent = event.progress.sent;
      if (changedAt === null && event.progress.sent < event.progress.total) {
        changedAt = event.progress.sent;
        how(path, 8 * MiB);
      }
    });
    try {
      const submitted = await uploadCore.submit([path], { origin: 'drop' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      expect(submitted.value.ids).toEqual([id]);
      const [row] = await waitForBatch(uploadCore, submitted.value.ids, isTerminal, 120_000);
      const after = await sha256(path);
      // The change happened during the upload, before the file's first byte was sent (only the request head was).
      expect(changedAt).not.toBeNull();
      expect(changedAt).toBeLessThan(64 * 1024);
      expect(after).not.toBe(before);
      const atService = embeddedScans(row!.externalReferenceId, 'data-http');
      if (outcome === 'completed') {
        // Sent again after the change: the verdict and the digests are those of the content the file holds now.
        expect(row).toMatchObject({ status: 'completed', safe: true, error: null, sha256: after, size: (await stat(path)).size });
        expect(attempts).toBe(2);
        // The cut first upload created nothing: the service holds one scan for the file, of the current content.
        expect(atService).toEqual([{ status: 'completed', sha256: after }]);
      } else {
        expect(row).toMatchObject({ status: 'failed', safe: null, sha256: before, error: { code: 'file_changed' } });
        expect(row?.error?.message).toBe(
          'The file changed while it was being uploaded: the service scanned other content than Verdict had read, so its verdict is not used. Scan it again.',
        );
        expect(attempts).toBe(1);
        // The service scanned what the upload read (the rewritten content): not what Verdict fingerprinted.
        expect(atService).toEqual([{ status: 'completed', sha256: after }]);
      }
      console.log(`a file that ${change} during its upload → ${row?.status}${row?.error ? ` (${row.error.code}: ${row.error.message})` : ''} after ${attempts} upload(s)`);
    } finally {
      off();
      await rm(path, { force: true });
    }
  });
});

describe('10,000 files dropped at once', () => {
  it('all queued at once, all reach a terminal state, memory stays bounded', async () => {
    const root = join(dir.path, 'ten-thousand');
    await mkdir(root);
    // Distinct contents, so every file is uploaded and scanned (no verdict is reused).
    const paths: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const path = join(root, `f${String(i).padStart(5, '0')}.txt`);
      await writeFile(path, `content ${i}\n`);
      paths.push(path);
    }
    const liveBefore = liveHeap();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const started = performance.now();
    try {
      const submitted = await core.submit(paths, { origin: 'drop' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      const queuedMs = performance.now() - started;
      expect(submitted.value.queued).toBe(10_000);
      expect(new Set(submitted.value.ids).size).toBe(10_000);
      const rows = await waitForBatch(core, submitted.value.ids, isTerminal, 280_000);
      const totalMs = performance.now() - started;
      // The recheck's memory learns from each verdict after it is told (recheck/seen-files.ts): its queue is
      // not the pipeline's, and is emptied before what stays alive is counted.
      await core.idle();
      await core.recheck.idle();
      expect(rows.filter((r) => r.status !== 'completed')).toEqual([]);
      expect(rows.filter((r) => r.reusedFromId !== null)).toEqual([]);
      expect(new Set(rows.map((r) => r.sha256)).size).toBe(10_000);
      const growth = (peak - rssBefore) / MiB;
      const retained = (liveHeap() - liveBefore) / MiB;
      console.log(
        `10,000 files: queued in ${(queuedMs / 1000).toFixed(1)} s, all terminal after ${(totalMs / 1000).toFixed(1)} s, ` +
          `peak RSS growth ${growth.toFixed(1)} MiB (main and service threads), live heap retained ${retained.toFixed(1)} MiB`,
      );
      // Bounded: after the batch, what stays alive is the 10,000 rows this test holds (~1 KiB each) and
      // nothing per file in the pipeline. Peak RSS is reported, not asserted: it follows GC timing (both
      // threads' V8 heaps grow with garbage and keep the space; 208–249 MiB measured here).
      expect(retained).toBeLessThan(20);
    } finally {
      clearInterval(sampler);
      await rm(root, { recursive: true, force: true });
    }
  }, 300_000);
});

// The fingerprint threads: the same digests as fingerprintFile (checked against
// coreutils), a small file's bytes handed over, the same errors, a cancelled job,
// and the fallback to the calling thread when the thread's entry cannot run.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FingerprintError } from '../../../electron/fingerprint/fingerprint.ts';
import { createFingerprintPool, type FingerprintPool } from '../../../electron/fingerprint/fingerprint-pool.ts';

let dir: string;
const pools: FingerprintPool[] = [];
const sha256sum = (file: string) => execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0];
const md5sum = (file: string) => execFileSync('md5sum', [file], { encoding: 'utf8' }).split(' ')[0];

function write(name: string, content: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

function pool(options: Parameters<typeof createFingerprintPool>[0] = {}): FingerprintPool {
  const created = createFingerprintPool({ keepContentUpTo: 64 * 1024, digests: ['sha256'], maxSize: 4 * 1024 * 1024, ...options });
  pools.push(created);
  return created;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-fingerprint-pool-'));
});
afterEach(async () => {
  for (const created of pools.splice(0)) await created.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the fingerprint threads', () => {
  it('fingerprint files of every size on their threads, handing over a small file’s bytes and the stat after the read', async () => {
    const small = randomBytes(40_000);
    const files = [write('empty.bin', Buffer.alloc(0)), write('small.bin', small), write('edge.bin', randomBytes(64 * 1024)), write('large.bin', randomBytes(3 * 1024 * 1024 + 7))];
    const threads = pool({ threads: 2 });
    const signal = new AbortController().signal;
    const results = await Promise.all(files.map((file) => threads.fingerprint(file, signal)));
    for (const [i, result] of results.entries()) {
      if (result.kind !== 'digests') throw new Error(`unexpected ${result.kind}`);
      expect(result.fingerprint.sha256, files[i]).toBe(sha256sum(files[i]!));
      expect(result.fingerprint.md5).toBeUndefined();
      expect(result.after).toMatchObject({ isFile: true, size: result.fingerprint.bytesRead, ino: result.fingerprint.opened.ino, mtimeMs: result.fingerprint.opened.mtimeMs });
    }
    const [, smallResult, , largeResult] = results;
    expect(smallResult?.kind === 'digests' && smallResult.fingerprint.content?.equals(small)).toBe(true);
    expect(largeResult?.kind === 'digests' && largeResult.fingerprint.content).toBeUndefined();
  });

  it('computes md5 and sha1 too when asked', async () => {
    const file = write('all.bin', randomBytes(5000));
    const result = await pool({ digests: ['md5', 'sha1', 'sha256'] }).fingerprint(file, new AbortController().signal);
    expect(result.kind === 'digests' && result.fingerprint.md5).toBe(md5sum(file));
  });

  it('gives the errors fingerprintFile gives, and refuses a file over the size limit unread', async () => {
    const threads = pool();
    const signal = new AbortController().signal;
    await expect(threads.fingerprint(path.join(dir, 'missing.bin'), signal)).rejects.toMatchObject({ name: 'FingerprintError', code: 'not_found' });
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const refused = await threads.fingerprint(fifo, signal).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FingerprintError);
    expect(refused).toMatchObject({ code: 'not_regular_file' });
    const big = write('big.bin', Buffer.alloc(4 * 1024 * 1024 + 1));
    expect(await threads.fingerprint(big, signal)).toEqual({ kind: 'too_large', size: 4 * 1024 * 1024 + 1 });
  });

  it('rejects a cancelled job with the signal’s reason, and goes on with the next', async () => {
    const threads = pool({ threads: 1 });
    const file = write('cancel.bin', randomBytes(2 * 1024 * 1024));
    const controller = new AbortController();
    const first = threads.fingerprint(file, controller.signal);
    const queued = threads.fingerprint(file, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(first).rejects.toThrow('cancelled');
    await expect(queued).rejects.toThrow('cancelled');
    const next = await threads.fingerprint(file, new AbortController().signal);
    expect(next.kind === 'digests' && next.fingerprint.sha256).toBe(sha256sum(file));
  });

  it('fingerprints on the calling thread when the thread cannot run, and says so once', async () => {
    const fallbacks: Error[] = [];
    const threads = pool({ threadEntry: new URL('./no-such-thread.ts', import.meta.url), onFallback: (error) => fallbacks.push(error) });
    const file = write('fallback.bin', randomBytes(1000));
    const signal = new AbortController().signal;
    const results = await Promise.all([threads.fingerprint(file, signal), threads.fingerprint(file, signal)]);
    for (const result of results) expect(result.kind === 'digests' && result.fingerprint.sha256).toBe(sha256sum(file));
    expect(fallbacks).toHaveLength(1);
    const big = write('fallback-big.bin', Buffer.alloc(4 * 1024 * 1024 + 1));
    expect(await threads.fingerprint(big, signal)).toEqual({ kind: 'too_large', size: 4 * 1024 * 1024 + 1 });
  });
});

// Fingerprints of real files, checked against coreutils' md5sum, sha1sum and sha256sum.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintFile, FingerprintError } from '../../../electron/fingerprint/fingerprint.ts';

let dir: string;

function coreutils(file: string) {
  const digest = (tool: string) => execFileSync(tool, [file], { encoding: 'utf8' }).split(' ')[0];
  return { md5: digest('md5sum'), sha1: digest('sha1sum'), sha256: digest('sha256sum') };
}

function write(name: string, content: Buffer | string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-fingerprint-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fingerprintFile', () => {
  const cases: Array<[string, () => Buffer]> = [
    ['an empty file', () => Buffer.alloc(0)],
    ['a 1-byte file', () => Buffer.from('a')],
    ['a few MB not a multiple of the chunk size', () => randomBytes(3 * 1024 * 1024 + 12_345)],
    ['exactly two chunks', () => randomBytes(2 * 1024 * 1024)],
    // Buffers are sized to the file (+1): these sit on and around that edge.
    ['a 4 KB file', () => randomBytes(4096)],
    ['a 64 KB file', () => randomBytes(65_536)],
    ['one byte short of a chunk', () => randomBytes(1024 * 1024 - 1)],
    ['exactly one chunk', () => randomBytes(1024 * 1024)],
    ['one byte past a chunk', () => randomBytes(1024 * 1024 + 1)],
  ];
  for (const [label, make] of cases) {
    it(`matches coreutils for ${label}`, async () => {
      const content = make();
      const file = write(`${label.replace(/\W+/g, '-')}.bin`, content);
      const result = await fingerprintFile(file);
      expect(result).toEqual({ ...coreutils(file), bytesRead: content.length, opened: expect.objectContaining({ size: content.length }) });
    });
  }

  it('computes sha256 alone when md5 and sha1 are not asked for', async () => {
    const content = randomBytes(70_001);
    const file = write('sha256-only.bin', content);
    const result = await fingerprintFile(file, { digests: ['sha256'] });
    expect(result).toEqual({ sha256: coreutils(file).sha256, bytesRead: 70_001, opened: expect.objectContaining({ size: 70_001 }) });
  });

  it('gives the same digests with small chunks, and reports progress up to the size', async () => {
    const content = randomBytes(100_003);
    const file = write('progress.bin', content);
    const progress: number[] = [];
    const result = await fingerprintFile(file, { chunkSize: 4096, onProgress: (bytes) => progress.push(bytes) });
    expect(result).toEqual({ ...coreutils(file), bytesRead: 100_003, opened: expect.objectContaining({ size: 100_003 }) });
    expect(progress.length).toBe(Math.ceil(100_003 / 4096));
    expect(progress.at(-1)).toBe(100_003);
    expect(progress.every((value, i) => i === 0 || value > progress[i - 1]!)).toBe(true);
  });

  it('reports the bytes actually read, so a file that grew after intake shows up', async () => {
    const file = write('growing.bin', 'abc');
    const sizeAtIntake = statSync(file).size;
    appendFileSync(file, 'defg');
    const result = await fingerprintFile(file);
    expect(sizeAtIntake).toBe(3);
    expect(result.bytesRead).toBe(7);
    expect(result.sha256).toBe(coreutils(file).sha256);
  });

  it('stops when aborted, with an AbortError', async () => {
    const file = write('abort.bin', randomBytes(1024 * 1024));
    const controller = new AbortController();
    const seen: number[] = [];
    const run = fingerprintFile(file, {
      chunkSize: 1024,
      signal: controller.signal,
      onProgress: (bytes) => {
        seen.push(bytes);
        if (bytes >= 10 * 1024) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.at(-1)).toBe(10 * 1024);

    const already = AbortSignal.abort();
    await expect(fingerprintFile(file, { signal: already })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a FIFO without hanging', { timeout: 10_000 }, async () => {
    const fifo = path.join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const error = await fingerprintFile(fifo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FingerprintError);
    expect(error).toMatchObject({ code: 'not_regular_file' });
  });

  it('refuses a device', async () => {
    await expect(fingerprintFile('/dev/zero')).rejects.toMatchObject({ code: 'not_regular_file' });
  });

  it('reports a missing file and a replaced one', async () => {
    await expect(fingerprintFile(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'not_found' });

    const file = write('replaced.txt', 'first');
    const before = statSync(file);
    rmSync(file);
    write('other.txt', 'keeps the old inode number in use');
    write('replaced.txt', 'second');
    expect(statSync(file).ino).not.toBe(before.ino);
    await expect(fingerprintFile(file, { expect: { dev: before.dev, ino: before.ino } })).rejects.toMatchObject({ code: 'file_changed' });
    const now = statSync(file);
    await expect(fingerprintFile(file, { expect: { dev: now.dev, ino: now.ino } })).resolves.toMatchObject({ bytesRead: 6 });
  });
});

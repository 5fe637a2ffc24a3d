// The pieces behind receiving small uploads into memory: the sink that holds a
// body or spills it to a file (within a service-wide budget), and media-type
// detection from bytes, which must say what detection from the file says.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_BYTES } from '../../../electron/local-service/upload/file-digest.ts';
import { detectMediaType } from '../../../electron/local-service/upload/media-type.ts';
import { MemoryBudget, UploadSink } from '../../../electron/local-service/upload/upload-sink.ts';
import { CLAMAV_TESTFILES_DIR } from '../../support/clamd.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-upload-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let fileNumber = 0;
async function receive(chunks: Buffer[], options: { memoryLimit: number; budget: MemoryBudget }) {
  const spillFile = join(dir, `spill-${fileNumber++}`);
  let spilled = false;
  const sink = new UploadSink({ ...options, spillFile, onSpill: () => (spilled = true) });
  await pipeline(Readable.from(chunks), sink);
  return { sink, spillFile, spilled };
}

describe('UploadSink', () => {
  it('holds a small body in memory, counted in the budget until released', async () => {
    const budget = new MemoryBudget(1000);
    const chunks = [randomBytes(300), randomBytes(200)];
    const { sink, spillFile, spilled } = await receive(chunks, { memoryLimit: 1000, budget });
    expect(spilled).toBe(false);
    expect(existsSync(spillFile)).toBe(false);
    expect(sink.content()).toEqual(Buffer.concat(chunks));
    expect(budget.used).toBe(500);
    sink.release();
    sink.release();
    expect(budget.used).toBe(0);
  });

  it('spills past its own limit: the file holds every byte, in order', async () => {
    const budget = new MemoryBudget(10_000);
    const chunks = [randomBytes(300), randomBytes(300), randomBytes(300)];
    const { sink, spillFile, spilled } = await receive(chunks, { memoryLimit: 500, budget });
    expect(spilled).toBe(true);
    expect(sink.content()).toBeNull();
    expect(await readFile(spillFile)).toEqual(Buffer.concat(chunks));
    expect(budget.used).toBe(0);
  });

  it('spills when the shared budget is taken by other bodies, and gives back what it held', async () => {
    const budget = new MemoryBudget(1000);
    expect(budget.tryTake(800)).toBe(true); // other uploads
    const chunks = [randomBytes(150), randomBytes(150)];
    const { sink, spillFile, spilled } = await receive(chunks, { memoryLimit: 10_000, budget });
    expect(spilled).toBe(true);
    expect(sink.content()).toBeNull();
    expect(await readFile(spillFile)).toEqual(Buffer.concat(chunks));
    expect(budget.used).toBe(800);
  });

  it('keeps an empty body as an empty buffer', async () => {
    const { sink, spilled } = await receive([], { memoryLimit: 100, budget: new MemoryBudget(100) });
    expect(spilled).toBe(false);
    expect(sink.content()).toEqual(Buffer.alloc(0));
  });

  it('gives its share back and keeps nothing when the body fails', async () => {
    const budget = new MemoryBudget(1000);
    const sink = new UploadSink({ memoryLimit: 1000, budget, spillFile: join(dir, 'never') });
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(400);
        throw new Error('the client went away');
      })(),
    );
    await expect(pipeline(failing, sink)).rejects.toThrow('the client went away');
    expect(budget.used).toBe(0);
    expect(sink.content()).toBeNull();
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});

describe('detectMediaType from bytes', () => {
  const samples: Array<[string, Buffer]> = [
    ['empty', Buffer.alloc(0)],
    ['ascii text', Buffer.from('hello world\n'.repeat(100))],
    // A multi-byte character cut by the 8 KB sample boundary: still text.
    ['utf-8 text across the sample end', Buffer.from('a'.repeat(SAMPLE_BYTES - 1) + 'ä' + 'b'.repeat(100))],
    ['binary noise', randomBytes(50_000)],
    ['gzip', gzipSync(Buffer.from('x'.repeat(10_000)))],
    ['png signature', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2000)])],
    ['pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')],
    // tar is recognised at offset 257, ISO 9660 at 32 KB: past the 8 KB sample.
    ['tar header', Buffer.concat([Buffer.alloc(257), Buffer.from('ustar\u000000'), Buffer.alloc(1000)])],
    ['iso 9660', Buffer.concat([Buffer.alloc(32_769), Buffer.from('CD001'), Buffer.alloc(3000)])],
  ];
  const testFiles = existsSync(CLAMAV_TESTFILES_DIR) ? readdirSync(CLAMAV_TESTFILES_DIR).slice(0, 60) : [];

  it.each(samples)('%s: the same answer as from the file', async (name, content) => {
    const path = join(dir, `sample-${name.replace(/\W+/g, '-')}`);
    await writeFile(path, content);
    const sample = content.subarray(0, SAMPLE_BYTES);
    expect(await detectMediaType({ content }, sample, content.length)).toBe(await detectMediaType({ path }, sample, content.length));
  });

  it('clamav-testfiles (archives, executables, documents): the same answers as from the files', async () => {
    for (const name of testFiles) {
      const path = join(CLAMAV_TESTFILES_DIR, name);
      const content = await readFile(path);
      const sample = content.subarray(0, SAMPLE_BYTES);
      expect([name, await detectMediaType({ content }, sample, content.length)]).toEqual([name, await detectMediaType({ path }, sample, content.length)]);
    }
  });
});

describe('detectMediaType of gzip, told without inflating it', () => {
  // A tar inside (file-type inflates to tell .tar.gz from .gz), text inside, a body that does not inflate, a bare header.
  const tarball = (): Buffer => {
    const header = Buffer.alloc(512);
    header.write('notes.txt');
    header.write('ustar\u000000', 257, 'latin1');
    return Buffer.concat([header, Buffer.from('notes\n'.padEnd(512, '\0')), Buffer.alloc(1024)]);
  };
  const gzips: Array<[string, Buffer]> = [
    ['tar.gz', gzipSync(tarball())],
    ['text.gz', gzipSync(Buffer.from('man page\n'.repeat(2000)))],
    ['corrupt body', Buffer.concat([gzipSync(Buffer.from('x')).subarray(0, 10), randomBytes(5000)])],
    ['header only', Buffer.from([0x1f, 0x8b, 0x08])],
  ];

  it.each(gzips)('%s: the media type file-type gives, from the file and from its bytes', async (name, content) => {
    const path = join(dir, `gzip-${name.replace(/\W+/g, '-')}`);
    await writeFile(path, content);
    const { fileTypeFromFile } = await import('file-type');
    const sample = content.subarray(0, SAMPLE_BYTES);
    const expected = (await fileTypeFromFile(path))?.mime;
    expect(expected).toBe('application/gzip');
    expect(await detectMediaType({ path }, sample, content.length)).toBe(expected);
    expect(await detectMediaType({ content }, sample, content.length)).toBe(expected);
  });
});

describe('detectMediaType: text or binary, from the sample', () => {
  const typeOf = (content: Buffer) => detectMediaType({ content }, content.subarray(0, SAMPLE_BYTES), content.length);

  it('UTF-8 text is text/plain, also when the sample ends inside a 2-, 3- or 4-byte character', async () => {
    expect(await typeOf(Buffer.from('Grüße, 你好, 𝄞\ttab\r\n'))).toBe('text/plain');
    for (const character of ['ä', '€', '𝄞']) {
      for (let before = SAMPLE_BYTES - 3; before < SAMPLE_BYTES; before++) {
        expect([character, before, await typeOf(Buffer.from('a'.repeat(before) + character + 'b'.repeat(50)))]).toEqual([character, before, 'text/plain']);
      }
    }
  });

  it('binary controls, invalid UTF-8, or a character cut off where the file itself ends are application/octet-stream', async () => {
    for (const content of [
      Buffer.from('text with a NUL\u0000inside'),
      Buffer.from('text with DEL\u007f'),
      Buffer.from([0x61, 0x62, 0xff, 0x63]),
      // Cut where the file ends (not a sample cut): not text.
      Buffer.from([0x61, 0x62, 0xe2, 0x82]),
      // Invalid before the sample's end, though the end itself is a cut character.
      Buffer.concat([Buffer.from([0xc3, 0x28]), Buffer.from('a'.repeat(SAMPLE_BYTES - 3)), Buffer.from('€')]),
      // A control character within the sample, its end cut inside a character.
      Buffer.concat([Buffer.from('\u0001'), Buffer.from('a'.repeat(SAMPLE_BYTES - 2)), Buffer.from('€')]),
    ]) {
      expect(await typeOf(content)).toBe('application/octet-stream');
    }
  });
});

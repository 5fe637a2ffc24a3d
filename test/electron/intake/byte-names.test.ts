// Intake of names that are not UTF-8, on real files: each is listed, checked and opened by its
// exact bytes, never confused with the name Node's lossy decoding gives it (U+FFFD), and a
// missing one is still reported as missing.
import { mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPaths, type IntakeItem } from '../../../electron/intake/expand-paths.ts';
import { encodeFileName } from '../../../shared/file-name-bytes.ts';
import { EICAR } from '../../fixtures/engine-files.ts';
import { bytesOf, byteNamePath, mkdirByteName, rawPath, writeByteName } from '../../support/byte-names.ts';

let root: string;

async function collect(paths: string[]): Promise<IntakeItem[]> {
  const items: IntakeItem[] = [];
  for await (const item of expandPaths(paths)) items.push(item);
  return items;
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'verdict-byte-names-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('expandPaths: names that are not UTF-8', () => {
  it('lists col\\xff.com and col\\xef\\xbf\\xbd.com as two files, each with its own identity', async () => {
    const folder = path.join(root, 'two');
    const invalid = writeByteName(folder, bytesOf('col\xff.com'), EICAR);
    expect(invalid).toBe(path.join(folder, 'col\uDCFF.com'));
    const replacement = writeByteName(folder, bytesOf('col\xef\xbf\xbd.com'), 'clean\n');
    expect(replacement).toBe(path.join(folder, 'col\uFFFD.com'));

    const items = await collect([folder]);
    const accepted = items.filter((item) => item.ok);
    expect(accepted.map((item) => item.path).sort()).toEqual([invalid, replacement].sort());
    const byPath = new Map(accepted.map((item) => [item.path, item]));
    expect(byPath.get(invalid)).toMatchObject({ size: EICAR.length, ino: statSync(rawPath(invalid)).ino });
    expect(byPath.get(replacement)).toMatchObject({ size: 6, ino: statSync(rawPath(replacement)).ino });
  });

  it('accepts such a name given directly, and reports one that is not there as missing', async () => {
    const evil = writeByteName(root, bytesOf('evil\xfe.com'), EICAR);
    expect(await collect([evil])).toEqual([expect.objectContaining({ ok: true, path: evil, realPath: evil, size: EICAR.length })]);
    const missing = byteNamePath(root, bytesOf('gone\xfe.com'));
    expect(await collect([missing])).toEqual([expect.objectContaining({ ok: false, path: missing, code: 'not_found' })]);
  });

  it('walks a folder so named, and follows a link so named to a target so named, exactly', async () => {
    const folder = mkdirByteName(root, bytesOf('dir\xe9'));
    const target = writeByteName(folder, bytesOf('t\xc3\x28.bin'), 'abc');
    const link = byteNamePath(folder, bytesOf('link\xff'));
    symlinkSync(rawPath(target), rawPath(link));
    const items = await collect([folder]);
    // The link leads to a file the listing yields itself: one item, the file.
    expect(items).toEqual([expect.objectContaining({ ok: true, path: target, size: 3 })]);
    expect(await collect([link])).toEqual([expect.objectContaining({ ok: true, path: link, realPath: target })]);
  });

  it('reports a link out of the folder with its exact target', async () => {
    const outside = writeByteName(root, bytesOf('out\xfa'), 'x');
    const folder = mkdirByteName(root, bytesOf('in\xfb'));
    const link = byteNamePath(folder, bytesOf('to-out\xfc'));
    symlinkSync(rawPath(outside), rawPath(link));
    const [item] = await collect([folder]);
    expect(item).toMatchObject({ ok: false, excluded: true, path: link, params: { path: link, target: outside } });
  });

  it('yields every file of a folder of random byte names once, by its exact bytes', async () => {
    const name = fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => Buffer.from(bytes.filter((b) => b !== 0 && b !== 0x2f)));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 12, selector: (bytes) => bytes.toString('hex') }), async (names) => {
        const folder = path.join(root, `random-${run++}`);
        const usable = names.filter((bytes) => bytes.length > 0 && !['.', '..'].includes(bytes.toString('latin1')));
        for (const bytes of usable) writeByteName(folder, bytes, bytes);
        const items = await collect([folder]);
        const found = items.filter((item) => item.ok).map((item) => Buffer.from(encodeFileName(path.basename(item.path))).toString('hex'));
        expect(found.sort()).toEqual(usable.map((bytes) => bytes.toString('hex')).sort());
        // Each file holds its own name's bytes: the one opened is the one named.
        for (const item of items) if (item.ok) expect(item.size).toBe(encodeFileName(path.basename(item.path)).length);
      }),
      { numRuns: 15 },
    );
  });
});

describe('expandPaths: a path decoded lossily (a dropped file, the file dialog)', () => {
  it('finds the one file whose name decodes to it when the path names nothing', async () => {
    const folder = mkdirByteName(root, bytesOf('lossy\xe9dir'));
    const file = writeByteName(folder, bytesOf('doc\xff.txt'), 'the real one');
    const lossy = path.join(root, 'lossy\uFFFDdir', 'doc\uFFFD.txt');
    expect(await collect([lossy])).toEqual([expect.objectContaining({ ok: true, path: file, size: 'the real one'.length })]);
  });

  it('takes a path that exists as it is, and reports one that matches several files as missing', async () => {
    const folder = path.join(root, 'ambiguous');
    const real = writeByteName(folder, bytesOf('a\xef\xbf\xbd'), 'real U+FFFD');
    writeByteName(folder, bytesOf('a\xff'), 'x');
    expect(await collect([real])).toEqual([expect.objectContaining({ ok: true, path: real })]);
    writeByteName(folder, bytesOf('b\xfe'), 'x');
    writeByteName(folder, bytesOf('b\xfd'), 'x');
    const lossy = path.join(folder, 'b\uFFFD');
    expect(await collect([lossy])).toEqual([expect.objectContaining({ ok: false, path: lossy, code: 'not_found' })]);
  });
});

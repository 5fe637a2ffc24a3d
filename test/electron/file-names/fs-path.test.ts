// The Node side of names as bytes, on real files: fsPath reaches a name that is not UTF-8
// where its lossy string names another file; listings, realpath and readlink give exact names;
// the fingerprint (both readers) and the upload body read the right file; exactArgv recovers
// the command line's bytes.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactArgv } from '../../../electron/file-names/exact-argv.ts';
import { exactReadlink, exactRealpath, folderNames, fsPath, nameOf } from '../../../electron/file-names/fs-path.ts';
import { fingerprintFile } from '../../../electron/fingerprint/fingerprint.ts';
import { fingerprintFileSync } from '../../../electron/fingerprint/fingerprint-sync.ts';
import { openMultipartUpload } from '../../../electron/service-client/multipart-body.ts';
import { bytesOf, byteNamePath, rawPath, writeByteName } from '../../support/byte-names.ts';

let root: string;
let invalid: string;
let replacement: string;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'verdict-fs-path-'));
  invalid = writeByteName(root, bytesOf('col\xff.com'), 'the invalid one');
  replacement = writeByteName(root, bytesOf('col\xef\xbf\xbd.com'), 'the U+FFFD one');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('fsPath and nameOf', () => {
  it('passes a UTF-8 path on as the string itself, and one with escaped bytes as its exact bytes', () => {
    expect(fsPath(replacement)).toBe(replacement);
    expect(fsPath(invalid)).toEqual(Buffer.concat([Buffer.from(`${root}/col`), Buffer.from([0xff]), Buffer.from('.com')]));
    expect(readFileSync(fsPath(invalid), 'utf8')).toBe('the invalid one');
    // What Node alone would open: the other file.
    expect(readFileSync(invalid, 'utf8')).toBe('the U+FFFD one');
  });

  it('decodes names read as bytes exactly, keeping a real U+FFFD as it is', () => {
    expect(nameOf(bytesOf('col\xff.com'))).toBe('col\uDCFF.com');
    expect(nameOf(Buffer.from('col\uFFFD.com'))).toBe('col\uFFFD.com');
    expect(nameOf(Buffer.from('plain'))).toBe('plain');
  });

  it('lists, resolves and reads links by exact names', async () => {
    const names: string[] = [];
    for await (const name of await folderNames(root, 2)) names.push(name);
    expect(names.sort()).toEqual(['col\uDCFF.com', 'col\uFFFD.com']);
    const link = byteNamePath(root, bytesOf('link\xfe'));
    symlinkSync(rawPath(invalid), rawPath(link));
    expect(await exactReadlink(link)).toBe(invalid);
    expect(await exactRealpath(link)).toBe(invalid);
    rmSync(rawPath(link));
  });
});

describe('reading a file whose name is not UTF-8', () => {
  it('fingerprints the file named, in this thread and with blocking reads', async () => {
    expect((await fingerprintFile(invalid)).sha256).toBe(sha256('the invalid one'));
    const sync = fingerprintFileSync(invalid);
    expect(sync.kind === 'digests' && sync.fingerprint.sha256).toBe(sha256('the invalid one'));
    expect(sync.kind === 'digests' && sync.after?.size).toBe('the invalid one'.length);
  });

  it('uploads the file named, under a file name that is valid text', async () => {
    const upload = await openMultipartUpload({ path: invalid, name: path.basename(invalid), size: 'the invalid one'.length }, '{}');
    const chunks: Uint8Array[] = [];
    if (!Buffer.isBuffer(upload.body)) for await (const chunk of upload.body) chunks.push(chunk);
    const body = Buffer.isBuffer(upload.body) ? upload.body : Buffer.concat(chunks);
    await upload.close();
    const text = body.toString('utf8');
    expect(text).toContain('filename="col⟨0xFF⟩.com"');
    expect(text).toContain('the invalid one');
    expect(text).not.toContain('\uFFFD');
  });
});

describe('exactArgv', () => {
  const cmdline = (...args: Array<string | Buffer>) => () => Buffer.concat(args.flatMap((arg) => [Buffer.from(arg), Buffer.from([0])]));

  it("recovers an argument's bytes from /proc/self/cmdline, past Node's own options", () => {
    const argv = ['/usr/bin/node', '/repo/bin/verdict.mjs', 'scan', 'evil\uFFFD.com'];
    const raw = cmdline('node', '--no-warnings', 'bin/verdict.mjs', 'scan', bytesOf('evil\xfe.com'));
    expect(exactArgv(argv, { platform: 'linux', cmdline: raw })).toEqual([...argv.slice(0, 3), 'evil\uDCFE.com']);
  });

  it('keeps an argument whose bytes decode to something else, a real U+FFFD, and every argument off Linux', () => {
    const argv = ['node', 'verdict.mjs', 'a\uFFFD', 'b\uFFFD'];
    const raw = cmdline('node', 'verdict.mjs', bytesOf('x\xfe'), Buffer.from('b\uFFFD'));
    expect(exactArgv(argv, { platform: 'linux', cmdline: raw })).toEqual(argv);
    expect(exactArgv(argv, { platform: 'darwin', cmdline: raw })).toEqual(argv);
    expect(exactArgv(argv, { platform: 'linux', cmdline: () => { throw new Error('no /proc'); } })).toEqual(argv);
  });
});

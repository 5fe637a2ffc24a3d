// The clamd session client against real clamds: one running as us (Verdict's own) and one
// running as `clamav` (as Debian's system clamd does), which cannot open root's 0600 files
// by path. Both give the same verdicts through passed descriptors (FILDES), and through
// INSTREAM with the addon turned off; over TCP files are streamed. A descriptor pins the
// file it was opened on: a rename over the path never lends the other content's verdict.
import { execFileSync } from 'node:child_process';
import { renameSync, truncateSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openClamdClient, type ClamdClient, type ClamdClientOptions } from '../../../electron/engine/clamd/clamd-client.ts';
import { identityOf } from '../../../electron/engine/clamd/file-identity.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { useCleanups } from '../../support/cleanups.ts';
import { EICAR, expectedVerdict, freePort, privateFolder, type PrivateFolder } from './scan-files.ts';

const onCleanup = useCleanups();
let own: RunningClamd | null = null;
let asClamav: RunningClamd | null = null;
let folder: PrivateFolder;

beforeAll(async () => {
  [own, asClamav, folder] = await Promise.all([startClamd({ tcpPort: await freePort() }), startClamd({ user: 'clamav' }), privateFolder()]);
});
afterAll(async () => {
  await Promise.all([own?.stop(), asClamav?.stop(), folder?.remove()]);
});

function client(options: ClamdClientOptions): ClamdClient {
  const opened = openClamdClient(options);
  onCleanup(() => opened.close());
  return opened;
}

/** clamd's own answer to SCAN of a path: what a path-based client would get. */
function scanByPath(socketPath: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path: socketPath });
    let reply = '';
    socket.on('connect', () => socket.write(`zSCAN ${path}\0`));
    socket.on('data', (data: Buffer) => (reply += data.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(reply));
  });
}

describe.each([
  { who: 'clamd running as clamav', clamd: () => asClamav },
  { who: 'clamd running as us', clamd: () => own },
])('$who', ({ who, clamd }) => {
  test.skipIf(who !== 'clamd running as clamav')('cannot open the private test files by path (the case descriptors solve)', async ({ skip }) => {
    if (!asClamav) return skip();
    const file = await folder.file('by-path', true);
    expect(await scanByPath(asClamav.socketPath, file.path)).toMatch(/(Permission|Access) denied\. ERROR/);
  });

  test('FILDES: EICAR found, a clean file clean, through the passed descriptors', async ({ skip }) => {
    const running = clamd();
    if (!running) return skip();
    const scanner = client({ address: { kind: 'unix', path: running.socketPath } });
    expect(scanner.transport).toBe('fildes');
    expect(scanner.transportReason).toBeNull();
    const files = [await folder.file('fildes-infected', true), await folder.file('fildes-clean', false)];
    const verdicts = await Promise.all(files.map((file) => scanner.scan(file.fd)));
    expect(verdicts).toEqual(files.map((file) => expectedVerdict(file, 'fildes')));
  });

  test('the addon turned off: the same verdicts by INSTREAM, read from the same descriptors', async ({ skip }) => {
    const running = clamd();
    if (!running) return skip();
    const scanner = client({ address: { kind: 'unix', path: running.socketPath }, fdPassing: 'off' });
    expect(scanner.transport).toBe('instream');
    expect(scanner.transportReason).toMatch(/turned off/);
    const files = [await folder.file('instream-infected', true, 300_000), await folder.file('instream-clean', false, 300_000)];
    const verdicts = await Promise.all(files.map((file) => scanner.scan(file.fd)));
    expect(verdicts).toEqual(files.map((file) => expectedVerdict(file, 'instream')));
  });

  test('bytes in memory go by INSTREAM whatever the transport', async ({ skip }) => {
    const running = clamd();
    if (!running) return skip();
    const scanner = client({ address: { kind: 'unix', path: running.socketPath } });
    await expect(scanner.scanStream(Buffer.concat([Buffer.from('prefix'), EICAR]))).resolves.toEqual(expectedVerdict({ infected: true }, 'instream'));
    await expect(scanner.scanStream(Buffer.from('nothing to see'))).resolves.toEqual(expectedVerdict({ infected: false }, 'instream'));
    await expect(scanner.scanStream(Readable.from([Buffer.from('a stream '), EICAR, Buffer.from(' and more')]))).resolves.toEqual(expectedVerdict({ infected: true }, 'instream'));
  });

  test('a stream that fails half-way is file_unreadable, and the session goes on in step', async ({ skip }) => {
    const running = clamd();
    if (!running) return skip();
    const scanner = client({ address: { kind: 'unix', path: running.socketPath } });
    const broken = Readable.from(
      (async function* () {
        yield Buffer.from('the first part');
        throw new Error('the disk went away');
      })(),
    );
    const after = await folder.file('after-broken-stream', true);
    const [failed, next] = await Promise.all([scanner.scanStream(broken), scanner.scan(after.fd)]);
    expect(failed).toMatchObject({ kind: 'error', code: 'file_unreadable' });
    expect(next).toEqual(expectedVerdict(after, 'fildes'));
    expect(scanner.stats().sessions).toBe(1);
  });
});

describe('over TCP', () => {
  test('files are streamed (TCP carries no descriptors), with the same verdicts', async ({ skip }) => {
    if (!own?.tcpPort) return skip();
    const scanner = client({ address: { kind: 'tcp', host: '127.0.0.1', port: own.tcpPort } });
    expect(scanner.transport).toBe('instream');
    expect(scanner.transportReason).toMatch(/TCP/);
    const files = [await folder.file('tcp-infected', true), await folder.file('tcp-clean', false)];
    expect(await Promise.all(files.map((file) => scanner.scan(file.fd)))).toEqual(files.map((file) => expectedVerdict(file, 'instream')));
  });
});

describe('a file replaced between open and scan', () => {
  test.for(['auto', 'off'] as const)('another file renamed over its path (fdPassing %s): the descriptor keeps its own content\'s verdict', async (fdPassing, { skip }) => {
    if (!asClamav) return skip();
    const scanner = client({ address: { kind: 'unix', path: asClamav.socketPath }, fdPassing });
    const via = fdPassing === 'auto' ? 'fildes' : 'instream';
    const infected = await folder.file(`over-infected-${fdPassing}`, true);
    const clean = await folder.file(`over-clean-${fdPassing}`, false);
    // Identities as the caller took them when it hashed the open files.
    const hashed = [identityOf(infected.fd), identityOf(clean.fd)];
    // Then each path gets the other kind of content: a clean file over the infected one, EICAR over the clean one.
    renameSync((await folder.file(`over-by-clean-${fdPassing}`, false)).path, infected.path);
    renameSync((await folder.file(`over-by-infected-${fdPassing}`, true)).path, clean.path);
    expect(await scanner.scan(infected.fd, { expect: hashed[0] })).toEqual(expectedVerdict(infected, via));
    expect(await scanner.scan(clean.fd, { expect: hashed[1] })).toEqual(expectedVerdict(clean, via));
  });

  test('renamed itself: ctime moved with the link count unchanged, which a write with its mtime set back also shows: file_changed', async ({ skip }) => {
    if (!asClamav) return skip();
    const scanner = client({ address: { kind: 'unix', path: asClamav.socketPath } });
    const file = await folder.file('moved', true);
    const hashed = identityOf(file.fd);
    renameSync(file.path, `${file.path}-moved`);
    expect(await scanner.scan(file.fd, { expect: hashed })).toMatchObject({ kind: 'error', code: 'file_changed' });
  });

  test.for(['auto', 'off'] as const)('rewritten or truncated in place (fdPassing %s): file_changed, never the new content\'s verdict', async (fdPassing, { skip }) => {
    if (!asClamav) return skip();
    const scanner = client({ address: { kind: 'unix', path: asClamav.socketPath }, fdPassing });
    const infected = await folder.file(`rewrite-${fdPassing}`, true);
    const hashed = identityOf(infected.fd);
    writeFileSync(infected.path, 'a harmless replacement');
    const rewritten = await scanner.scan(infected.fd, { expect: hashed });
    expect(rewritten).toMatchObject({ kind: 'error', code: 'file_changed' });

    // The same size, its mtime set back by hand (touch -r): ctime still shows it.
    const forged = await folder.file(`forged-${fdPassing}`, true);
    const forgedBefore = identityOf(forged.fd);
    execFileSync('touch', ['-r', forged.path, `${forged.path}.times`]);
    writeFileSync(forged.path, Buffer.alloc(Number(forgedBefore.size), 0x41));
    execFileSync('touch', ['-r', `${forged.path}.times`, forged.path]);
    expect(identityOf(forged.fd)).toMatchObject({ size: forgedBefore.size, mtimeNs: forgedBefore.mtimeNs });
    expect(await scanner.scan(forged.fd, { expect: forgedBefore })).toMatchObject({ kind: 'error', code: 'file_changed' });

    const clean = await folder.file(`truncate-${fdPassing}`, false, 8192);
    const before = identityOf(clean.fd);
    truncateSync(clean.path, 100);
    expect(await scanner.scan(clean.fd, { expect: before })).toMatchObject({ kind: 'error', code: 'file_changed' });
    // Without an identity from the caller, the one at the call counts: the truncated file is scanned as it now is.
    expect(await scanner.scan(clean.fd)).toEqual(expectedVerdict(clean, fdPassing === 'auto' ? 'fildes' : 'instream'));
  });
});

describe('what cannot be scanned is never clean', () => {
  test('a descriptor that is not open, or not a regular file', async () => {
    const scanner = client({ address: { kind: 'unix', path: '/nonexistent/clamd.sock' } });
    expect(await scanner.scan(987_654)).toMatchObject({ kind: 'error', code: 'file_unreadable' });
    await expect(scanner.scan(-1)).rejects.toThrow(TypeError);
    expect(await scanner.scan(0)).toMatchObject({ kind: 'error' });
  });

  test('an unreachable clamd: engine_unavailable once the reconnect window has passed', async ({ skip }) => {
    if (!own) return skip();
    const file = await folder.file('unreachable', false);
    const scanner = client({ address: { kind: 'unix', path: `${own.socketPath}.missing` }, reconnectWindowMs: 300 });
    expect(await scanner.scan(file.fd)).toMatchObject({ kind: 'error', code: 'engine_unavailable', message: expect.stringMatching(/not reachable \(ENOENT\)/) });
    // Still down: the next scan fails at once.
    expect(await scanner.scan(file.fd)).toMatchObject({ kind: 'error', code: 'engine_unavailable' });
  });

  test('a scan cancelled before clamd answers is engine_aborted; a closed client takes no more', async ({ skip }) => {
    if (!own) return skip();
    const file = await folder.file('cancelled', true);
    const scanner = openClamdClient({ address: { kind: 'unix', path: own.socketPath } });
    const controller = new AbortController();
    controller.abort();
    expect(await scanner.scan(file.fd, { signal: controller.signal })).toMatchObject({ kind: 'error', code: 'engine_aborted' });
    const pending = scanner.scan(file.fd);
    const closing = scanner.close();
    expect(await pending).toEqual(expectedVerdict(file, 'fildes'));
    await closing;
    expect(await scanner.scan(file.fd)).toMatchObject({ kind: 'error', code: 'engine_aborted' });
  });
});

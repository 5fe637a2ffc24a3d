// When passed descriptors do not reach clamd, files are streamed instead, for good, and
// the client says so: clamd answering "No file descriptor received" (something between
// dropped it), and clamd cutting the connection at each FILDES (what it does when AppArmor
// or SELinux strips the descriptor). And a busy session is kept alive by PINGs past
// clamd's ReadTimeout, which would otherwise end it and the scans in it.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openClamdClient, type ClamdClient, type ClamdClientOptions } from '../../../electron/engine/clamd/clamd-client.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { useCleanups } from '../../support/cleanups.ts';
import { startClamdRelay } from './clamd-relay.ts';
import { expectedVerdict, privateFolder, type PrivateFolder } from './scan-files.ts';

const onCleanup = useCleanups();
let clamd: RunningClamd | null = null;
let folder: PrivateFolder;

beforeAll(async () => {
  [clamd, folder] = await Promise.all([startClamd({ user: 'clamav', extraConfig: ['ReadTimeout 1', 'MaxThreads 1'] }), privateFolder()]);
});
afterAll(async () => {
  await Promise.all([clamd?.stop(), folder?.remove()]);
});

function client(options: ClamdClientOptions, changes: string[]): ClamdClient {
  const opened = openClamdClient({ ...options, onTransportChange: (transport, reason) => changes.push(`${transport}: ${reason}`) });
  onCleanup(() => opened.close());
  return opened;
}

async function testFiles(prefix: string, count = 20) {
  return Promise.all(Array.from({ length: count }, (_, i) => folder.file(`${prefix}-${i}`, i % 2 === 0)));
}

describe('descriptors that do not reach clamd', () => {
  test('clamd says "No file descriptor received": the files in flight are streamed, and so is every later one', async ({ skip }) => {
    if (!clamd) return skip();
    const relay = await startClamdRelay(clamd.socketPath, folder.dir, 'forward');
    onCleanup(() => relay.close());
    const changes: string[] = [];
    const scanner = client({ address: { kind: 'unix', path: relay.path } }, changes);
    expect(scanner.transport).toBe('fildes');
    const files = await testFiles('refused');
    expect(await Promise.all(files.map((file) => scanner.scan(file.fd)))).toEqual(files.map((file) => expectedVerdict(file, 'instream')));
    expect(scanner.transport).toBe('instream');
    expect(scanner.transportReason).toMatch(/received no file descriptor \("No file descriptor received\. ERROR"\)/);
    expect(changes).toEqual([`instream: ${scanner.transportReason}`]);
    // Nothing was counted against the files: the switch is not a lost scan.
    expect(scanner.stats().resent).toBeGreaterThan(0);
    const later = await folder.file('refused-later', true);
    expect(await scanner.scan(later.fd)).toEqual(expectedVerdict(later, 'instream'));
    expect(relay.connections()).toBe(2);
  });

  test('clamd cuts the connection at each FILDES: after the second cut at the probe, files are streamed', async ({ skip }) => {
    if (!clamd) return skip();
    const relay = await startClamdRelay(clamd.socketPath, folder.dir, 'close-on-fildes');
    onCleanup(() => relay.close());
    const changes: string[] = [];
    const scanner = client({ address: { kind: 'unix', path: relay.path } }, changes);
    const files = await testFiles('dropped');
    expect(await Promise.all(files.map((file) => scanner.scan(file.fd)))).toEqual(files.map((file) => expectedVerdict(file, 'instream')));
    expect(scanner.transport).toBe('instream');
    expect(scanner.transportReason).toMatch(/closed the connection each time it was passed a file descriptor \(AppArmor or SELinux/);
    expect(changes).toHaveLength(1);
    expect(relay.connections()).toBe(3);
  });
});

describe('a busy session past clamd\'s ReadTimeout', () => {
  test('is pinged, so clamd keeps it and its scans: one session, every verdict', async ({ skip }) => {
    if (!clamd) return skip();
    // clamd (ReadTimeout 1, MaxThreads 1) takes over a second for each of these two (120 MB of zeros
    // to unpack), one after another, while the client has nothing more to send but its pings.
    const files = [];
    for (const n of [1, 2]) {
      const zeros = Buffer.alloc(120_000_000);
      zeros[zeros.length - 1] = n; // distinct files: clamd's cache of clean files does not answer for them
      files.push(await folder.file(`busy-${n}.gz`, gzipSync(zeros, { level: 1 })));
    }
    const scanner = client({ address: { kind: 'unix', path: clamd.socketPath }, limits: { readTimeoutS: 1 } }, []);
    expect(await Promise.all(files.map((file) => scanner.scan(file.fd)))).toEqual(files.map(() => ({ kind: 'clean', via: 'fildes' })));
    expect(scanner.stats()).toMatchObject({ sessions: 1, resent: 0 });
  });
});

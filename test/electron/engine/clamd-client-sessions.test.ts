// The session client's sessions against a real clamd: many files in flight on one session,
// each with exactly one matching answer; clamd restarted mid-run, idle sessions ended by
// ReadTimeout, and a stream over StreamMaxLength, none of which loses a file or calls one
// clean without a scan; and a client running in a worker thread.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openClamdClient, type ClamdClient, type ClamdClientOptions, type ClamdVerdict } from '../../../electron/engine/clamd/clamd-client.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { useCleanups } from '../../support/cleanups.ts';
import { EICAR, expectedVerdict, privateFolder, type PrivateFolder, type TestFile } from './scan-files.ts';

const onCleanup = useCleanups();
let clamd: RunningClamd | null = null;
/** ReadTimeout 1 (idle sessions end after a second) and StreamMaxLength 1M. */
let strict: RunningClamd | null = null;
let folder: PrivateFolder;

beforeAll(async () => {
  [clamd, strict, folder] = await Promise.all([
    startClamd({ user: 'clamav' }),
    startClamd({ streamMaxLength: '1M', extraConfig: ['ReadTimeout 1'] }),
    privateFolder(),
  ]);
});
afterAll(async () => {
  await Promise.all([clamd?.stop(), strict?.stop(), folder?.remove()]);
});

function client(options: ClamdClientOptions): ClamdClient {
  const opened = openClamdClient(options);
  onCleanup(() => opened.close());
  return opened;
}

/** `count` distinct files of 4–16 KiB, every third carrying EICAR. */
async function manyFiles(prefix: string, count: number): Promise<TestFile[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => folder.file(`${prefix}-${i}`, i % 3 === 0, 4096 + ((i * 97) % 12_288))));
}

/** Every file answered exactly once; an infected file never clean. Returns the verdicts. */
async function scanAll(scanner: ClamdClient, files: TestFile[], during?: (answered: () => number) => Promise<void>): Promise<ClamdVerdict[]> {
  const answers = files.map(() => 0);
  let answered = 0;
  const scans = Promise.all(
    files.map((file, i) =>
      scanner.scan(file.fd).then((verdict) => {
        answers[i]! += 1;
        answered += 1;
        return verdict;
      }),
    ),
  );
  await during?.(() => answered);
  const verdicts = await scans;
  expect(answers.every((count) => count === 1)).toBe(true);
  files.forEach((file, i) => {
    if (file.infected) expect(verdicts[i]?.kind, file.path).not.toBe('clean');
  });
  return verdicts;
}

describe('many files on one session', () => {
  test.for(['auto', 'off'] as const)('300 files in flight (fdPassing %s): one session, each file its own verdict', async (fdPassing, { skip }) => {
    if (!clamd) return skip();
    const scanner = client({ address: { kind: 'unix', path: clamd.socketPath }, fdPassing, inFlight: 16 });
    expect(scanner.inFlight).toBe(16);
    const files = await manyFiles(`many-${fdPassing}`, 300);
    const verdicts = await scanAll(scanner, files);
    const via = fdPassing === 'auto' ? 'fildes' : 'instream';
    expect(verdicts).toEqual(files.map((file) => expectedVerdict(file, via)));
    expect(scanner.stats()).toEqual({ sessions: 1, resent: 0, verdicts: 300 });
  });
});

describe('descriptors and streams on one session', () => {
  test('200 scans, every other one a stream from memory: each its own verdict, no descriptor lost, one session', async ({ skip }) => {
    if (!clamd) return skip();
    const scanner = client({ address: { kind: 'unix', path: clamd.socketPath }, inFlight: 16 });
    const files = await manyFiles('mixed', 100);
    const streams = files.map((file, i) => ({ infected: i % 2 === 0, bytes: Buffer.concat([Buffer.from(`stream ${i} `), ...(i % 2 === 0 ? [EICAR] : [])]) }));
    const verdicts = await Promise.all(files.flatMap((file, i) => [scanner.scan(file.fd), scanner.scanStream(streams[i]!.bytes)]));
    expect(verdicts).toEqual(files.flatMap((file, i) => [expectedVerdict(file, 'fildes'), expectedVerdict(streams[i]!, 'instream')]));
    expect(scanner.transport).toBe('fildes');
    expect(scanner.stats()).toEqual({ sessions: 1, resent: 0, verdicts: 200 });
  });
});

describe('clamd restarted mid-run', () => {
  test.for(['auto', 'off'] as const)('(fdPassing %s) no file lost, none clean without a scan; the scans in flight are sent again', async (fdPassing, { skip }) => {
    if (!clamd) return skip();
    const running = clamd;
    const scanner = client({ address: { kind: 'unix', path: running.socketPath }, fdPassing });
    const files = await manyFiles(`restart-${fdPassing}`, 300);
    const verdicts = await scanAll(scanner, files, async (answered) => {
      await expect.poll(answered, { timeout: 20_000, interval: 1 }).toBeGreaterThanOrEqual(40);
      await running.restart();
    });
    // clamd was back within the reconnect window: every file has its real verdict.
    const via = fdPassing === 'auto' ? 'fildes' : 'instream';
    expect(verdicts).toEqual(files.map((file) => expectedVerdict(file, via)));
    expect(scanner.stats().sessions).toBeGreaterThanOrEqual(2);
  });
});

describe('sessions clamd ends', () => {
  test('an idle session ends (before clamd\'s ReadTimeout would end it) and the next scan opens another', async ({ skip }) => {
    if (!strict) return skip();
    const scanner = client({ address: { kind: 'unix', path: strict.socketPath }, limits: { readTimeoutS: 1 } });
    const [first, second] = [await folder.file('idle-1', true), await folder.file('idle-2', false)];
    expect(await scanner.scan(first.fd)).toEqual(expectedVerdict(first, 'fildes'));
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await scanner.scan(second.fd)).toEqual(expectedVerdict(second, 'fildes'));
    expect(scanner.stats()).toMatchObject({ sessions: 2, resent: 0 });
  });

  test('a session clamd ends by ReadTimeout while the client thinks it open: the scan is sent again, not lost', async ({ skip }) => {
    if (!strict) return skip();
    // The client is told a longer ReadTimeout than clamd's: clamd ends the idle session first.
    const scanner = client({ address: { kind: 'unix', path: strict.socketPath }, limits: { readTimeoutS: 60 } });
    const [first, second] = [await folder.file('stale-1', false), await folder.file('stale-2', true)];
    expect(await scanner.scan(first.fd)).toEqual(expectedVerdict(first, 'fildes'));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await scanner.scan(second.fd)).toEqual(expectedVerdict(second, 'fildes'));
    expect(scanner.stats().sessions).toBe(2);
  });

  test('INSTREAM over StreamMaxLength: engine_size_limit for that file; the others in flight still get their verdicts', async ({ skip }) => {
    if (!strict) return skip();
    const scanner = client({ address: { kind: 'unix', path: strict.socketPath }, fdPassing: 'off' });
    const big = await folder.file('too-big', false, 3 * 1024 * 1024);
    const others = await manyFiles('beside-too-big', 12);
    const [bigVerdict, ...verdicts] = await Promise.all([scanner.scan(big.fd), ...others.map((file) => scanner.scan(file.fd))]);
    expect(bigVerdict).toMatchObject({ kind: 'error', code: expect.stringMatching(/^engine_(size_limit|unavailable)$/) });
    expect(verdicts).toEqual(others.map((file) => expectedVerdict(file, 'instream')));
  });

  test('with StreamMaxLength known, a file too large to stream fails at once, and FILDES has no such limit', async ({ skip }) => {
    if (!strict) return skip();
    const big = await folder.file('too-big-known', true, 2 * 1024 * 1024);
    const streaming = client({ address: { kind: 'unix', path: strict.socketPath }, fdPassing: 'off', limits: { streamMaxLength: 1024 * 1024 } });
    expect(await streaming.scan(big.fd)).toMatchObject({ kind: 'error', code: 'engine_size_limit' });
    expect(streaming.stats().sessions).toBe(0);
    const passing = client({ address: { kind: 'unix', path: strict.socketPath }, limits: { streamMaxLength: 1024 * 1024 } });
    expect(await passing.scan(big.fd)).toEqual(expectedVerdict(big, 'fildes'));
  });
});

describe('in a worker thread', () => {
  test('the client (and the addon) work there as on the main thread', async ({ skip }) => {
    if (!clamd) return skip();
    const files = await manyFiles('worker', 30);
    const source = `
      const { workerData, parentPort } = require('node:worker_threads');
      import(workerData.module).then(async ({ openClamdClient }) => {
        const client = openClamdClient({ address: { kind: 'unix', path: workerData.socket } });
        const verdicts = await Promise.all(workerData.fds.map((fd) => client.scan(fd)));
        await client.close();
        parentPort.postMessage(verdicts);
      });`;
    const module = new URL('../../../electron/engine/clamd/clamd-client.ts', import.meta.url).href;
    const verdicts = await new Promise<ClamdVerdict[]>((resolve, reject) => {
      const worker = new Worker(source, { eval: true, workerData: { module, socket: clamd!.socketPath, fds: files.map((file) => file.fd) } });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(verdicts).toEqual(files.map((file) => expectedVerdict(file, 'fildes')));
  });
});

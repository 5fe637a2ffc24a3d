// ClamdEngine against a real clamd started by the test with its own signature
// database (test/support/clamd.ts). Skipped with a loud notice outside CI when
// clamd is not installed; in CI a missing clamd fails the run.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { EngineError, type EngineVerdict } from '../../../electron/engine/engine.ts';
import { CLAMAV_TESTFILES_DIR, startClamd, TEST_SIGNATURES, type RunningClamd } from '../../support/clamd.ts';
import { EICAR, fixtureDir, noise, type FixtureDir } from '../../fixtures/engine-files.ts';

// Every file clamav-testfiles 1.4 ships: clam.exe itself, packed (UPX, FSG, …),
// archived (zip, 7z, cab, …), encoded (binhex, mail, rtf, …) and installers.
// Listed by name so a file that is missing or stops being detected fails loudly.
const CLAM_TEST_FILES = [
  'clam.exe', 'clam-aspack.exe', 'clam-fsg.exe', 'clam-mew.exe', 'clam-nsis.exe', 'clam-pespin.exe',
  'clam-petite.exe', 'clam-upack.exe', 'clam-upx.exe', 'clam-wwpack.exe', 'clam-yc.exe', 'clam.7z', 'clam.arj',
  'clam.bin-be.cpio', 'clam.bin-le.cpio', 'clam.bz2.zip', 'clam.cab', 'clam.chm', 'clam.d64.zip', 'clam.ea05.exe',
  'clam.ea06.exe', 'clam.exe.binhex', 'clam.exe.bz2', 'clam.exe.html', 'clam.exe.mbox.base64', 'clam.exe.mbox.uu',
  'clam.exe.rtf', 'clam.exe.szdd', 'clam.impl.zip', 'clam.mail', 'clam.newc.cpio', 'clam.odc.cpio', 'clam.ole.doc',
  'clam.pdf', 'clam.ppt', 'clam.sis', 'clam.tar.gz', 'clam.tnef', 'clam.zip', 'clam_IScab_ext.exe',
  'clam_IScab_int.exe', 'clam_ISmsi_ext.exe', 'clam_ISmsi_int.exe', 'clam_cache_emax.tgz',
];

// Each verdict names its engine: clamd's VERSION with the tests' own databases has no signature version.
const CLAMAV = { name: 'clamav', version: expect.stringMatching(/^\d+\.\d+\.\d+/) as unknown as string, signatures: null } as const;
const CLEAN: EngineVerdict = { safe: true, detailed: 'clean', findings: [], engine: CLAMAV };
const infected = (name: string): EngineVerdict => ({ safe: false, detailed: 'infected', findings: [{ name }], engine: CLAMAV });

let clamd: RunningClamd | null = null;
let files: FixtureDir;

beforeAll(async () => {
  files = await fixtureDir();
  clamd = await startClamd();
});
afterAll(async () => {
  await clamd?.stop();
  await files.remove();
});

/** The running clamd, or skip this test (startClamd already warned loudly, and throws in CI). */
function needClamd(context: TestContext): RunningClamd {
  if (!clamd) context.skip('clamd is not installed');
  return clamd as RunningClamd;
}
const engineFor = (running: RunningClamd) => new ClamdEngine({ endpoint: { socketPath: running.socketPath } });

async function scanError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    (verdict) => new Error(`expected an EngineError, got the verdict ${JSON.stringify(verdict)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('ClamdEngine with a real clamd', () => {
  test('ping and version', async (context) => {
    const engine = engineFor(needClamd(context));
    await expect(engine.ping()).resolves.toBeUndefined();
    await expect(engine.version()).resolves.toMatch(/^ClamAV \d+\.\d+/);
  });

  test('a clean file is OK', async (context) => {
    const engine = engineFor(needClamd(context));
    const file = await files.write('clean.txt', 'just a harmless text file\n');
    await expect(engine.scan(file)).resolves.toEqual(CLEAN);
  });

  test('an empty file is OK', async (context) => {
    const engine = engineFor(needClamd(context));
    await expect(engine.scan(await files.write('empty', ''))).resolves.toEqual(CLEAN);
  });

  test('EICAR is FOUND with its signature name', async (context) => {
    const engine = engineFor(needClamd(context));
    await expect(engine.scan(await files.write('eicar.com', EICAR))).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
  });

  test('EICAR inside a gzip file is found through unpacking', async (context) => {
    const engine = engineFor(needClamd(context));
    const file = await files.write('eicar.txt.gz', gzipSync(Buffer.concat([noise(5000), EICAR])));
    await expect(engine.scan(file)).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
  });

  test('a 24 MB file is streamed whole: clean, and FOUND when EICAR is its last bytes', async (context) => {
    const engine = engineFor(needClamd(context));
    const body = noise(24 * 1024 * 1024, 7);
    await expect(engine.scan(await files.write('big-clean.bin', body))).resolves.toEqual(CLEAN);
    const tail = await files.write('big-eicar-at-end.bin', Buffer.concat([body, EICAR]));
    await expect(engine.scan(tail)).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
  });

  test.for(CLAM_TEST_FILES)('clamav-testfiles %s is detected', async (name, context) => {
    const engine = engineFor(needClamd(context));
    // Outside CI clamav-testfiles may be missing (startClamd warned); in CI startClamd throws instead.
    if (!existsSync(`${CLAMAV_TESTFILES_DIR}/clam.exe`)) context.skip('clamav-testfiles is not installed');
    await expect(engine.scan(`${CLAMAV_TESTFILES_DIR}/${name}`)).resolves.toEqual(infected(TEST_SIGNATURES.clamTestFile));
  });

  test('concurrent scans each get their own verdict', async (context) => {
    const engine = engineFor(needClamd(context));
    const clean = await files.write('concurrent-clean.bin', noise(200_000, 3));
    const eicar = await files.write('concurrent-eicar.com', EICAR);
    const jobs = Array.from({ length: 16 }, (_, i) => (i % 2 ? engine.scan(eicar) : engine.scan(clean)));
    const verdicts = await Promise.all(jobs);
    verdicts.forEach((verdict, i) => expect(verdict).toEqual(i % 2 ? infected(TEST_SIGNATURES.eicar) : CLEAN));
  });

  test('scanBytes: the same verdicts from bytes in memory (clean, empty, EICAR, packed, several chunks)', async (context) => {
    const engine = engineFor(needClamd(context));
    await expect(engine.scanBytes(Buffer.from('just a harmless text file\n'))).resolves.toEqual(CLEAN);
    await expect(engine.scanBytes(Buffer.alloc(0))).resolves.toEqual(CLEAN);
    await expect(engine.scanBytes(EICAR)).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
    await expect(engine.scanBytes(gzipSync(Buffer.concat([noise(5000), EICAR])))).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
    // EICAR as the last bytes of a body sent in many small chunks: every chunk reaches clamd.
    const chunked = new ClamdEngine({ endpoint: { socketPath: needClamd(context).socketPath }, chunkSize: 4096 });
    await expect(chunked.scanBytes(Buffer.concat([noise(300_000, 4), EICAR]))).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
    await expect(chunked.scanBytes(noise(300_000, 4))).resolves.toEqual(CLEAN);
    if (existsSync(`${CLAMAV_TESTFILES_DIR}/clam.zip`)) {
      const { readFile } = await import('node:fs/promises');
      await expect(engine.scanBytes(await readFile(`${CLAMAV_TESTFILES_DIR}/clam.zip`))).resolves.toEqual(infected(TEST_SIGNATURES.clamTestFile));
    }
    expect((await scanError(engine.scanBytes(EICAR, AbortSignal.abort()))).code).toBe('engine_aborted');
  });

  test('an unreadable file is file_unreadable, not clean', async (context) => {
    const engine = engineFor(needClamd(context));
    const error = await scanError(engine.scan(`${files.path}/does-not-exist`));
    expect(error.code).toBe('file_unreadable');
    expect(error.message).toContain('ENOENT');
    // The connection was given up cleanly: the next scan works.
    await expect(engine.scan(await files.write('after-unreadable.txt', 'fine'))).resolves.toEqual(CLEAN);
  });

  test('a directory is file_unreadable', async (context) => {
    const engine = engineFor(needClamd(context));
    expect((await scanError(engine.scan(files.path))).code).toBe('file_unreadable');
  });

  test('a signal aborted before the scan rejects with engine_aborted', async (context) => {
    const engine = engineFor(needClamd(context));
    const file = await files.write('pre-aborted.txt', 'x');
    const error = await scanError(engine.scan(file, AbortSignal.abort()));
    expect(error.code).toBe('engine_aborted');
  });

  test('aborting during a scan rejects with engine_aborted and clamd stays usable', async (context) => {
    const engine = engineFor(needClamd(context));
    const file = await files.write('abort-mid-upload.bin', noise(32 * 1024 * 1024, 11));
    const controller = new AbortController();
    const scan = engine.scan(file, controller.signal);
    // Typically lands mid-upload; wherever it lands, the scan must not resolve.
    setImmediate(() => controller.abort(new Error('user cancelled')));
    const error = await scanError(scan);
    expect(error.code).toBe('engine_aborted');
    await expect(engine.ping()).resolves.toBeUndefined();
  });
});

describe('ClamdEngine with a clamd whose StreamMaxLength is 1 MB, over unix socket and TCP', () => {
  let small: RunningClamd | null = null;
  beforeAll(async () => {
    if (!clamd) return; // startClamd already warned
    small = await startClamd({ streamMaxLength: '1M', tcpPort: await freePort() });
  });
  afterAll(async () => {
    await small?.stop();
  });

  test('a file above StreamMaxLength is engine_size_limit, never clean (unix socket)', async (context) => {
    needClamd(context);
    const running = small as RunningClamd;
    const file = await files.write('above-limit.bin', noise(3 * 1024 * 1024, 5));
    // Repeated: clamd's reply and its hang-up race with our upload; both paths must say size limit.
    for (const chunkSize of [16 * 1024, 256 * 1024, 2 * 1024 * 1024]) {
      const engine = new ClamdEngine({ endpoint: { socketPath: running.socketPath }, chunkSize });
      const error = await scanError(engine.scan(file));
      expect(error.code).toBe('engine_size_limit');
      expect(error.message).toMatch(/StreamMaxLength/);
    }
  });

  test('TCP: ping, clean, EICAR and the size limit', async (context) => {
    needClamd(context);
    const running = small as RunningClamd;
    const engine = new ClamdEngine({ endpoint: { host: '127.0.0.1', port: running.tcpPort as number } });
    expect(engine.where).toBe(`tcp:127.0.0.1:${running.tcpPort}`);
    await engine.ping();
    await expect(engine.scan(await files.write('tcp-clean.txt', 'hello'))).resolves.toEqual(CLEAN);
    await expect(engine.scan(await files.write('tcp-eicar.com', EICAR))).resolves.toEqual(infected(TEST_SIGNATURES.eicar));
    const error = await scanError(engine.scan(await files.write('tcp-above-limit.bin', noise(3 * 1024 * 1024, 9))));
    expect(error.code).toBe('engine_size_limit');
  });
});

/** A TCP port that was free a moment ago, for clamd's TCPSocket. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

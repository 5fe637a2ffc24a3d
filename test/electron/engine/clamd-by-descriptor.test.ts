// The local engine path's clamd engine with the session client, against a real clamd running
// as `clamav` (as Debian's system clamd runs), which cannot open root's private 0600 files by
// path: the engine opens each file once and passes its descriptor (FILDES), or streams from it
// with fd passing off. A file the app hashed and the engine scanned unchanged is not read a
// second time; one replaced, truncated or rewritten in between never lends its verdict.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import type { HashedIdentity } from '../../../electron/engine/engine.ts';
import { createEngineRequests } from '../../../electron/local-service/thread/engine-requests.ts';
import type { EngineScanOutcome } from '../../../electron/local-service/thread/thread-protocol.ts';
import { startClamd, TEST_SIGNATURES, type RunningClamd } from '../../support/clamd.ts';
import { useCleanups } from '../../support/cleanups.ts';
import { privateFolder, type PrivateFolder } from './scan-files.ts';

const onCleanup = useCleanups();
let asClamav: RunningClamd | null = null;
let folder: PrivateFolder;
/** Over the 1 MiB the app keeps in memory: read by the engine by its path. */
const LARGE = 2 * 1024 * 1024;

beforeAll(async () => {
  [asClamav, folder] = await Promise.all([startClamd({ user: 'clamav' }), privateFolder()]);
});
afterAll(async () => {
  await Promise.all([asClamav?.stop(), folder?.remove()]);
});

function engineFor(clamd: RunningClamd, fdPassing: 'auto' | 'off'): ClamdEngine {
  const engine = new ClamdEngine({ endpoint: { socketPath: clamd.socketPath }, sessions: 2, sessionClient: true, fdPassing });
  onCleanup(() => engine.close());
  return engine;
}

/** The file as the fingerprinter notes it when it opens the file to hash it. */
function hashedNow(path: string): { hashed: HashedIdentity; sha256: string } {
  const info = statSync(path);
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  return { hashed: { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs }, sha256 };
}

function scanAtEngine(engine: ClamdEngine, path: string, hashed: HashedIdentity): Promise<EngineScanOutcome> {
  const requests = createEngineRequests(Promise.resolve({ engine, concurrency: 2 }), { warn() {} });
  return requests.scan({ path, size: hashed.size, reference: path, basicOnly: false, hashed }, new AbortController().signal);
}

const found = { ok: true, result: { safe: false, detailed: 'infected', findings: [{ name: TEST_SIGNATURES.eicar, engine: 'clamd' }] } };
const clean = { ok: true, result: { safe: true, detailed: 'clean', findings: [] } };

describe.each(['auto', 'off'] as const)('clamd running as clamav, fd passing %s', (fdPassing) => {
  const via = fdPassing === 'auto' ? 'fildes' : 'instream';

  test(`private files get their verdicts through the ${via === 'fildes' ? 'passed descriptor' : 'stream read from it'}; unchanged since hashed: no second read`, async ({ skip }) => {
    if (!asClamav) return skip();
    const engine = engineFor(asClamav, fdPassing);
    const infected = await folder.file(`infected-${fdPassing}`, true, LARGE);
    const harmless = await folder.file(`clean-${fdPassing}`, false, LARGE);
    const outcomes = await Promise.all([infected, harmless].map((file) => scanAtEngine(engine, file.path, hashedNow(file.path).hashed)));
    expect(engine.transport).toBe(via);
    expect(outcomes[0]).toMatchObject(found);
    expect(outcomes[1]).toMatchObject(clean);
    // The app's digests stand: the engine vouched for the file it hashed (fileHash absent: nothing read again).
    expect(outcomes.map((outcome) => outcome.fileHash)).toEqual([null, null]);
    // And the app is told so: its pre-read identity stands for the file at the verdict (no stat for its unchanged-file entry).
    expect(outcomes.map((outcome) => outcome.unchangedSinceHashed)).toEqual([true, true]);
    expect(outcomes.map((outcome) => outcome.fileType)).toEqual(['application/octet-stream', 'application/octet-stream']);
    // Several commands in flight on the one session: the engine's turns follow it (clamd's defaults: 8).
    expect(engine.concurrency).toBe(8);
    // Bytes in memory (small files) go by INSTREAM on the same session.
    await expect(engine.scanBytes(readFileSync(infected.path))).resolves.toMatchObject({ safe: false, findings: [{ name: TEST_SIGNATURES.eicar }] });
  });

  test('a small file in memory: scanned by its descriptor while it is the file hashed, else its bytes are; never the replacement\'s verdict', async ({ skip }) => {
    if (!asClamav) return skip();
    const engine = engineFor(asClamav, fdPassing);
    const small = await folder.file(`small-${fdPassing}`, true);
    const hashed = { ...hashedNow(small.path).hashed, path: small.path };
    const bytes = readFileSync(small.path);
    const foundInBytes = { safe: false, findings: [{ name: TEST_SIGNATURES.eicar }] };
    const unchanged = await engine.scanBytes(bytes, undefined, { hashed });
    expect(unchanged).toMatchObject(foundInBytes);
    // By descriptor (vouched for) only where descriptors go; streamed bytes need no vouching.
    expect(unchanged.sameAsHashed === true).toBe(via === 'fildes');
    // Handed over as the app does (bytes with the file they came from): the outcome tells the app the same.
    const handed = await createEngineRequests(Promise.resolve({ engine, concurrency: 2 }), { warn() {} }).scan(
      { path: small.path, content: Buffer.from(bytes), size: bytes.length, reference: small.path, basicOnly: false, hashed },
      new AbortController().signal,
    );
    expect(handed).toMatchObject(found);
    expect(handed.unchangedSinceHashed === true).toBe(via === 'fildes');
    renameSync((await folder.file(`small-replacement-${fdPassing}`, false)).path, small.path);
    const replaced = await engine.scanBytes(bytes, undefined, { hashed });
    expect(replaced).toMatchObject(foundInBytes);
    expect(replaced.sameAsHashed).toBeUndefined();
    const handedReplaced = await createEngineRequests(Promise.resolve({ engine, concurrency: 2 }), { warn() {} }).scan(
      { path: small.path, content: Buffer.from(bytes), size: bytes.length, reference: small.path, basicOnly: false, hashed },
      new AbortController().signal,
    );
    expect(handedReplaced).toMatchObject(found);
    expect(handedReplaced.unchangedSinceHashed).toBeUndefined();
  });

  test('a file replaced (renamed over), truncated or rewritten with its mtime set back after it was hashed never gets the other content\'s verdict', async ({ skip }) => {
    if (!asClamav) return skip();
    const engine = engineFor(asClamav, fdPassing);

    // Renamed over: the infected file the app hashed is replaced by a clean one.
    const replaced = await folder.file(`replaced-${fdPassing}`, true, LARGE);
    const before = hashedNow(replaced.path);
    renameSync((await folder.file(`replacement-${fdPassing}`, false, LARGE)).path, replaced.path);
    const afterRename = await scanAtEngine(engine, replaced.path, before.hashed);
    // The verdict (clean) comes with the digest of what was scanned: not what the app hashed, so the app refuses it (finish.ts).
    expect(afterRename).toMatchObject(clean);
    expect(afterRename.fileHash?.sha256).toBeDefined();
    expect(afterRename.fileHash?.sha256).not.toBe(before.sha256);
    expect(afterRename.unchangedSinceHashed).toBeUndefined();

    // Truncated: a smaller file now (the app reads it again, local-engine-port.ts).
    const truncated = await folder.file(`truncated-${fdPassing}`, true, LARGE);
    const hashedTruncated = hashedNow(truncated.path);
    truncateSync(truncated.path, 100);
    const afterTruncate = await scanAtEngine(engine, truncated.path, hashedTruncated.hashed);
    expect(afterTruncate.sizeNow).toBe(100);
    expect(afterTruncate.fileHash?.sha256).not.toBe(hashedTruncated.sha256);
    expect(afterTruncate.unchangedSinceHashed).toBeUndefined();

    // Rewritten in place, same size, mtime set back by hand: ctime still shows it.
    const forged = await folder.file(`forged-${fdPassing}`, true, LARGE);
    const hashedForged = hashedNow(forged.path);
    execFileSync('touch', ['-r', forged.path, `${forged.path}.times`]);
    writeFileSync(forged.path, Buffer.alloc(hashedForged.hashed.size, 0x41));
    execFileSync('touch', ['-r', `${forged.path}.times`, forged.path]);
    expect(statSync(forged.path)).toMatchObject({ size: hashedForged.hashed.size, mtimeMs: hashedForged.hashed.mtimeMs });
    const afterForge = await scanAtEngine(engine, forged.path, hashedForged.hashed);
    expect(afterForge).toMatchObject(clean);
    expect(afterForge.unchangedSinceHashed).toBeUndefined();
    expect(afterForge.fileHash?.sha256).not.toBe(hashedForged.sha256);
  });
});

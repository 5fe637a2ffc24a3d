// `verdict scan` on names that are not UTF-8, as a user runs it (bin/verdict.mjs from a shell,
// which alone can hand over such bytes): the EICAR file behind col\xff.com is found, the file
// really named col\xef\xbf\xbd.com is scanned once, a name given on the command line is found
// by its bytes, --json adds `pathBytes`, and random byte names go through walk, scan, history
// and --json exactly.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history.ts';
import { decodeFileName, encodeFileName } from '../../../shared/file-name-bytes.ts';
import { EICAR } from '../../fixtures/engine-files.ts';
import { bytesOf, shellWord, writeByteName } from '../../support/byte-names.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
let runs = 0;

beforeAll(async () => {
  dir = await tempDir('verdict-cli-bytes-');
});
afterAll(async () => dir?.remove());

/** `verdict scan … <paths>` through /bin/sh, each path as its exact bytes; the data dir is the run's own. */
function scanFromShell(paths: string[], options: string[] = []): Promise<ChildRun & { dataDir: string }> {
  const dataDir = join(dir.path, `data-${runs++}`);
  const script = `exec "$0" bin/verdict.mjs scan --engine builtin --data-dir "$1" ${options.join(' ')} ${paths.map(shellWord).join(' ')}`;
  return runNode(['-c', script, process.execPath, dataDir], { node: '/bin/sh', cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-bytes-test-${process.pid}` }, timeoutMs: 50_000 }).then((run) => ({
    ...run,
    dataDir,
  }));
}

const lines = (text: string) => text.split('\n').filter(Boolean);
const base64Of = (verdictPath: string) => Buffer.from(encodeFileName(verdictPath)).toString('base64');

describe('verdict scan: names that are not UTF-8', () => {
  it('finds the EICAR file behind col\\xff.com, scans col\\xef\\xbf\\xbd.com once, and exits 1', async () => {
    const folder = join(dir.path, 'repro');
    const invalid = writeByteName(folder, bytesOf('col\xff.com'), EICAR);
    const replacement = writeByteName(folder, bytesOf('col\xef\xbf\xbd.com'), 'clean\n');
    const run = await scanFromShell([folder]);
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run.stdout).sort()).toEqual(
      [`THREAT ${folder}/col⟨0xFF⟩.com  (infected: EICAR-Test-File)`, `BASIC  ${replacement}  (basic checks only (EICAR test file only); not a full scan: ClamAV was not available)`].sort(),
    );
    expect(run.stderr).toMatch(/2 scanned \(1 with basic checks only, not a full scan\), 1 threat/);
    const history = openHistory(run.dataDir);
    try {
      expect(history.query({ verdicts: ['unsafe'], limit: 5 }).items.map((record) => record.path)).toEqual([invalid]);
    } finally {
      history.close();
    }
    // Named on the command line, col\xff.com is not taken for the file its lossy name names (the clean one).
    const named = await scanFromShell([invalid]);
    expect(named.code, named.stderr).toBe(1);
    expect(lines(named.stdout)).toEqual([`THREAT ${folder}/col⟨0xFF⟩.com  (infected: EICAR-Test-File)`]);
  });

  it('finds evil\\xfe.com named on the command line, and writes its path and bytes with --json', async () => {
    const evil = writeByteName(join(dir.path, 'named'), bytesOf('evil\xfe.com'), EICAR);
    const plain = await scanFromShell([evil]);
    expect(plain.code, plain.stderr).toBe(1);
    expect(lines(plain.stdout)).toEqual([`THREAT ${join(dir.path, 'named')}/evil⟨0xFE⟩.com  (infected: EICAR-Test-File)`]);

    const json = await scanFromShell([evil], ['--json']);
    expect(json.code, json.stderr).toBe(1);
    const [line] = lines(json.stdout).map((text) => JSON.parse(text) as { path: string; pathBytes?: string; verdict: string });
    expect(line).toMatchObject({ path: `${join(dir.path, 'named')}/evil⟨0xFE⟩.com`, pathBytes: base64Of(evil), verdict: 'unsafe' });
    expect(Buffer.from(line!.pathBytes!, 'base64')).toEqual(Buffer.concat([Buffer.from(`${dir.path}/named/evil`), Buffer.from([0xfe]), Buffer.from('.com')]));
  });

  it('scans a 12 MB file named big\\xfe.bin, which the engine reads by its own path (not from the bytes the app hashed)', async () => {
    // Over the size whose bytes go to the engine with the request: the engine opens the file by its exact name.
    const big = writeByteName(join(dir.path, 'large'), bytesOf('big\xfe.bin'), Buffer.alloc(12 * 1024 * 1024, 0x61));
    const run = await scanFromShell([big]);
    expect(run.code, run.stderr).toBe(3);
    expect(lines(run.stdout)).toEqual([`BASIC  ${join(dir.path, 'large')}/big⟨0xFE⟩.bin  (basic checks only (EICAR test file only); not a full scan: ClamAV was not available)`]);
  });

  it('sends random byte names through walk, scan, history and --json exactly', async () => {
    const name = fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => Buffer.from(bytes.map((b) => (b === 0 || b === 0x2f ? 0xff : b))));
    const files = fc.uniqueArray(fc.record({ name, threat: fc.boolean() }), { minLength: 1, maxLength: 6, selector: (file) => file.name.toString('hex') });
    await fc.assert(
      fc.asyncProperty(files, async (chosen) => {
        const folder = join(dir.path, `random-${runs}`);
        const made = chosen.filter((file) => !['.', '..'].includes(file.name.toString('latin1')));
        const expected = new Map(made.map((file) => [writeByteName(folder, file.name, file.threat ? EICAR : `clean ${file.name.toString('hex')}`), file.threat]));
        const run = await scanFromShell([folder], ['--json']);
        // The built-in engine: no threat found is basic checks only (exit 3), never "all clean".
        expect(run.code, run.stderr).toBe(made.some((file) => file.threat) ? 1 : 3);
        const seen = lines(run.stdout).map((text) => JSON.parse(text) as { path: string; pathBytes?: string; verdict: string });
        const exact = seen.map((line) => [line.pathBytes === undefined ? line.path : decodeFileName(Buffer.from(line.pathBytes, 'base64')), line.verdict] as const);
        expect(new Map(exact)).toEqual(new Map([...expected].map(([path, threat]) => [path, threat ? 'unsafe' : 'basic-only'])));
        const history = openHistory(run.dataDir);
        try {
          const stored = history.query({ limit: 50 }).items.map((record) => record.path);
          expect(stored.filter((path) => expected.has(path)).length).toBe(expected.size);
        } finally {
          history.close();
        }
      }),
      { numRuns: 3 },
    );
  });
});

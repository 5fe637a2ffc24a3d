// The `scan` CLI as a user runs it (a real `node electron/cli/scan.ts` process):
// output lines and exit codes for a file the built-in engine found nothing in (BASIC, exit 3:
// never "clean"), EICAR, an oversize file and a missing path, the JSON format, names with hidden characters, a remote service with a good and a bad key.
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ASYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { exitCodeFor, formatPlain } from '../../../electron/cli/format.ts';
import { BUILTIN_IDENTITY } from '../../../shared/engine/engine-identity.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { startTestService, tempDir, writeEicar, type TestService } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
let files: { clean: string; eicar: string; huge: string; missing: string };
let service: TestService;

beforeAll(async () => {
  dir = await tempDir('verdict-cli-');
  const folder = join(dir.path, 'files with spaces');
  await mkdir(folder);
  const clean = join(folder, 'report final.txt');
  await writeFile(clean, 'quarterly numbers\n');
  const eicar = await writeEicar(join(folder, 'eicar.com'));
  const huge = join(folder, 'huge.iso');
  await writeFile(huge, '');
  await truncate(huge, MAX_ASYNC_FILE_SIZE + 1);
  files = { clean, eicar, huge, missing: join(folder, 'not-there.pdf') };
  service = await startTestService(join(dir.path, 'service'));
});
afterAll(async () => {
  await service?.close();
  await dir?.remove();
});

let runs = 0;
function scan(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  // Each run its own data dir: no verdict reuse between cases, no lock contention.
  const dataDir = join(dir.path, `data-${runs++}`);
  return runNode([join(ROOT, 'electron/cli/scan.ts'), '--data-dir', dataDir, '--engine', 'builtin', ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, ...env },
    timeoutMs: 50_000,
  });
}

const lines = (text: string) => text.split('\n').filter(Boolean);
/** What the built-in engine's clean answer prints: basic checks only, not a full scan. */
const BASIC_DETAIL = '(basic checks only (EICAR test file only); not a full scan: ClamAV was not available)';

describe('scan CLI', () => {
  it('prints BASIC, never CLEAN, and exits 3 for a file only the built-in engine checked', async () => {
    const run = await scan([files.clean]);
    expect(run.code, run.stderr).toBe(3);
    expect(lines(run.stdout)).toEqual([`BASIC  ${files.clean}  ${BASIC_DETAIL}`]);
    expect(run.stdout).not.toContain('CLEAN');
    expect(run.stderr).toMatch(/\[1\/1\] completed/);
  });

  it('prints THREAT with the finding and exits 1 for EICAR', async () => {
    const run = await scan([files.eicar, files.clean]);
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run.stdout)).toContain(`THREAT ${files.eicar}  (infected: EICAR-Test-File)`);
    // A threat wins over basic checks only (exit 1, not 3); the other file still reads BASIC.
    expect(lines(run.stdout)).toContain(`BASIC  ${files.clean}  ${BASIC_DETAIL}`);
    expect(lines(run.stdout)).toHaveLength(2);
  });

  it('prints ERROR and exits 2 for an oversize file and a missing path, without sending them', async () => {
    const run = await scan([files.huge, files.missing]);
    expect(run.code, run.stderr).toBe(2);
    const out = lines(run.stdout);
    expect(out).toHaveLength(2);
    expect(out.find((line) => line.includes('huge.iso'))).toMatch(/^ERROR {2}.*huge\.iso {2}\(.*100 MB.*\)$/);
    expect(out.find((line) => line.includes('not-there.pdf'))).toMatch(/^ERROR {2}.*not-there\.pdf {2}\(.+\)$/);
  });

  it('scans a folder and writes one JSON object per file with --json', async () => {
    const run = await scan(['--json', '--mode', 'async', join(dir.path, 'files with spaces')]);
    expect(run.code, run.stderr).toBe(1);
    const objects = lines(run.stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects).toHaveLength(3);
    const byName = new Map(objects.map((object) => [String(object.path).split('/').at(-1), object]));
    // `safe` stays what the engine said; `verdict` says it was basic checks only.
    expect(byName.get('report final.txt')).toMatchObject({ status: 'completed', safe: true, findings: [], verdict: 'basic-only' });
    expect(byName.get('eicar.com')).toMatchObject({ verdict: 'unsafe' });
    expect(byName.get('report final.txt')!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(byName.get('report final.txt')!.scanId).toEqual(expect.any(String));
    expect(byName.get('eicar.com')).toMatchObject({ status: 'completed', safe: false, detailed: 'infected', findings: [{ name: 'EICAR-Test-File' }] });
    expect(byName.get('huge.iso')).toMatchObject({ status: 'failed', safe: null, error: { code: 'too_large' } });
    // Who made each verdict (--engine builtin here); none without a verdict.
    for (const name of ['report final.txt', 'eicar.com']) expect(byName.get(name)!.engine).toEqual({ name: 'builtin', version: null, signatures: null });
    expect(byName.get('huge.iso')!.engine).toBeNull();
    for (const object of objects) expect(Object.keys(object)).toEqual(expect.arrayContaining(['path', 'status', 'safe', 'detailed', 'findings', 'sha256', 'scanId', 'engine']));
  });

  it('shows a name with a right-to-left override, a newline or Hebrew on one honest line; --json keeps the real name', async () => {
    const folder = join(dir.path, 'odd names');
    await mkdir(folder);
    // "invoice" + RLO + "fdp.exe" would read "invoiceexe.pdf" on a terminal.
    const disguised = join(folder, 'invoice\u202Efdp.exe');
    const newline = join(folder, 'two\nlines.txt');
    const hebrew = join(folder, 'דוח שנתי.txt');
    // Different contents: no file reuses another's verdict (which the line would mention).
    for (const file of [disguised, newline, hebrew]) await writeFile(file, `harmless text for ${file}\n`);

    const plain = await scan([disguised, newline, hebrew]);
    expect(plain.code, plain.stderr).toBe(3);
    const out = lines(plain.stdout);
    expect(out).toHaveLength(3);
    expect(out).toContain(`BASIC  ${folder}/invoice⟨U+202E⟩fdp.exe  ${BASIC_DETAIL}`);
    expect(out).toContain(`BASIC  ${folder}/two⟨U+000A⟩lines.txt  ${BASIC_DETAIL}`);
    // Right-to-left letters are text, not control characters: printed as they are.
    expect(out).toContain(`BASIC  ${hebrew}  ${BASIC_DETAIL}`);
    expect(plain.stdout).not.toContain('\u202E');
    // The progress lines on stderr name the files the same way.
    expect(plain.stderr).toContain('completed: invoice⟨U+202E⟩fdp.exe');
    expect(plain.stderr).not.toContain('\u202E');

    const json = await scan(['--json', disguised, newline]);
    expect(json.code, json.stderr).toBe(3);
    // Machines get the real path (JSON-escaped, so the line itself holds no control or bidi character).
    expect(json.stdout).not.toMatch(/[\u202E]/);
    expect(json.stdout).toContain('invoice\\u202efdp.exe');
    const paths = lines(json.stdout).map((line) => (JSON.parse(line) as { path: string }).path);
    expect(paths.sort()).toEqual([disguised, newline].sort());
  });

  it('uses a remote service with VERDICT_API_KEY, and reports a rejected key as not scanned', async () => {
    // The test service runs the built-in engine: told by its label (a remote service's verdict names no engine).
    const good = await scan(['--service', service.url, files.clean], { VERDICT_API_KEY: service.key });
    expect(good.code, good.stderr).toBe(3);
    expect(lines(good.stdout)).toEqual([`BASIC  ${files.clean}  ${BASIC_DETAIL}`]);

    const bad = await scan(['--service', service.url, files.clean], { VERDICT_API_KEY: 'not-the-key-at-all' });
    expect(bad.code).toBe(2);
    expect(lines(bad.stdout)).toEqual([expect.stringMatching(/^ERROR {2}.*report final\.txt {2}\(not scanned: the service rejected the API key/)]);
  });

  it('refuses bad arguments with exit code 2 and the usage', async () => {
    const run = await scan(['--mode', 'fast', files.clean]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--mode must be auto, sync or async/);
    const none = await scan([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Usage: npm run -s scan/);
  });
});

describe('CLI line format', () => {
  const base = { path: '/tmp/a\nb.txt', status: 'completed', safe: true, detailed: 'clean', findings: [], reusedFromId: null, error: null, pendingReason: null } as unknown as ScanRecord;
  it('keeps one line per file whatever the name holds, and shows hidden characters as ⟨U+XXXX⟩', () => {
    expect(formatPlain(base)).toBe('CLEAN  /tmp/a⟨U+000A⟩b.txt  (clean)');
    // A bidi control in a name, or in the core's message quoting it, is shown instead of reordering the line.
    expect(formatPlain({ ...base, path: '/tmp/invoice\u202Efdp.exe' })).toBe('CLEAN  /tmp/invoice⟨U+202E⟩fdp.exe  (clean)');
    const failed = { ...base, status: 'failed', safe: null, error: { code: 'not_found', message: 'Gone: /tmp/x\u2066y' } } as ScanRecord;
    expect(formatPlain(failed)).toBe('ERROR  /tmp/a⟨U+000A⟩b.txt  (Gone: /tmp/x⟨U+2066⟩y)');
  });
  it('lets a threat decide the exit code over a file that could not be scanned', () => {
    const unsafe = { ...base, safe: false } as ScanRecord;
    const failed = { ...base, status: 'failed', safe: null } as ScanRecord;
    expect(exitCodeFor([base])).toBe(0);
    expect(exitCodeFor([base, failed])).toBe(2);
    expect(exitCodeFor([failed, unsafe])).toBe(1);
    expect(exitCodeFor([{ ...base, status: 'queued', safe: null } as ScanRecord])).toBe(2);
    // Content the user allowed: not a threat for the exit code, never printed as clean.
    const allowed = { ...base, safe: false, detailed: 'Eicar-Test-Signature', disposition: 'allowed' } as ScanRecord;
    expect(exitCodeFor([base, allowed])).toBe(0);
    expect(formatPlain(allowed)).toBe('ALLOWED /tmp/a⟨U+000A⟩b.txt  (Eicar-Test-Signature; allowed by you)');
    expect(formatPlain({ ...allowed, disposition: 'quarantine_pending' })).toMatch(/^THREAT .*; moving it to quarantine\)$/);
  });
  it('gives basic checks only its own line and exit code 3, below a threat and a file not scanned', () => {
    const basic = { ...base, path: '/tmp/b.txt', detailed: 'clean (basic checks only; ClamAV not available)', engine: BUILTIN_IDENTITY } as ScanRecord;
    const failed = { ...base, status: 'failed', safe: null } as ScanRecord;
    const unsafe = { ...base, safe: false, engine: BUILTIN_IDENTITY } as ScanRecord;
    expect(formatPlain(basic)).toBe(`BASIC  /tmp/b.txt  ${BASIC_DETAIL}`);
    expect(exitCodeFor([base, basic])).toBe(3);
    expect(exitCodeFor([basic, failed])).toBe(2);
    expect(exitCodeFor([failed, basic])).toBe(2);
    expect(exitCodeFor([basic, unsafe])).toBe(1);
    // Without the engine (a remote service), the built-in engine's label tells it.
    expect(exitCodeFor([{ ...basic, engine: null }])).toBe(3);
    // ClamAV's clean answer is clean.
    expect(exitCodeFor([{ ...base, engine: { name: 'clamav', version: '1.4.6', signatures: null } } as ScanRecord])).toBe(0);
  });
});

// `verdict allow-name` as the user runs it (bin/verdict.mjs, real processes on one data dir): allow
// the built-in engine's EICAR name, and the next `scan` prints ALLOWED (detection allowed by you) and
// exits 0; --list shows it; --remove makes the next scan a THREAT (exit 1) again; exit codes 1 and 2.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeEicar } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('verdict-allow-name-');
});
afterAll(async () => dir?.remove());

function verdict(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode([BIN, ...args], { cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-allow-name-test-${process.pid}`, ...env }, timeoutMs: 50_000 });
}

describe('verdict allow-name', () => {
  it('allow, scan (ALLOWED, exit 0), list, remove, scan (THREAT, exit 1)', async () => {
    const data = join(dir.path, 'data');
    const eicar = await writeEicar(join(dir.path, 'eicar.com'));
    const scan = (...more: string[]) => verdict(['scan', '--engine', 'builtin', '--data-dir', data, ...more, eicar]);

    const first = await scan();
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout.trim()).toBe(`THREAT ${eicar}  (infected: EICAR-Test-File)`);

    const allow = await verdict(['allow-name', '--data-dir', data, 'EICAR-Test-File']);
    expect(allow.code, allow.stderr).toBe(0);
    expect(allow.stdout.trim()).toBe('Allowed "EICAR-Test-File": 1 file in the history now reads allowed.');

    const allowed = await scan('--force');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout.trim()).toBe(`ALLOWED ${eicar}  (infected: EICAR-Test-File; detection allowed by you)`);
    const json = await scan('--json', '--force');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'allowed', safe: false, disposition: 'allowed', allowedBy: 'name', findings: [{ name: 'EICAR-Test-File' }] });

    const list = await verdict(['allow-name', '--list', '--data-dir', data]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trim()).toBe('EICAR-Test-File');

    const remove = await verdict(['allow-name', '--remove', '--json', '--data-dir', data, 'EICAR-Test-File']);
    expect(remove.code, remove.stderr).toBe(0);
    expect(JSON.parse(remove.stdout)).toEqual({ names: [], changed: 3 });

    const threat = await scan('--force');
    expect(threat.code, threat.stderr).toBe(1);
    expect(threat.stdout.trim()).toBe(`THREAT ${eicar}  (infected: EICAR-Test-File)`);

    const again = await verdict(['allow-name', '--remove', '--data-dir', data, 'EICAR-Test-File']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('This detection name is not on the allowed list.');
  });

  it('bad arguments exit 2: no name, two names, --list with a name, a name over two lines; German where the settings say so', async () => {
    const data = join(dir.path, 'data-args');
    for (const args of [[], ['A', 'B'], ['--list', 'A'], ['Win.A\nWin.B'], ['--nope', 'A']]) {
      const run = await verdict(['allow-name', '--data-dir', data, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
    }
    const help = await verdict(['allow-name', '--help']);
    expect(help.code).toBe(0);
    const de = await verdict(['allow-name', '--data-dir', data, 'Win.Tool.Foo-123'], { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' });
    expect(de.code, de.stderr).toBe(0);
    expect(de.stdout.trim()).toBe('„Win.Tool.Foo-123“ zugelassen: 0 Dateien im Verlauf gelten jetzt als zugelassen.');
  });
});

// `verdict rules` as the user runs it (issue 28 §4): a real rule file with good rules, a syntax
// error between them, a rule using the `pe` module and one with 70 strings. ClamAV's own loader
// checks each rule at import: the good ones are accepted (also the one after the syntax error),
// each bad one is refused with its file, line and why; then `verdict scan` on Verdict's own clamd
// finds the good rules' test files; `rules remove` takes one away again. German words too.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRules } from '../../../electron/cli/rules.ts';
import { findClamscan } from '../../../electron/feeds/check-feed-file.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { tempDir } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');

const RULES = `// Rules a user keeps: two good, three ClamAV cannot load.
import "pe"

rule VerdictGood : test
{
    meta:
        author = "verdict"
    strings:
        $a = "VERDICT-YARA-GOOD" nocase
    condition:
        $a
}

rule VerdictBroken
{
    strings:
        $a = "VERDICT-YARA-BROKEN"
    condition:
        $a and and
}

rule VerdictAfterBroken
{
    strings:
        $h = { 56 45 52 44 49 43 54 2D 41 46 54 45 52 }
        $r = /VERDICT-AFTER-[0-9]+/
    condition:
        $h and $r
}

rule VerdictPe
{
    condition:
        pe.number_of_sections > 1
}

rule VerdictMany
{
    strings:
${Array.from({ length: 70 }, (_, index) => `        $s${index} = "VERDICT-MANY-${String(index).padStart(3, '0')}"`).join('\n')}
    condition:
        any of them
}
`;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('verdict-rules-');
});
afterAll(async () => dir?.remove());

function verdict(args: string[]): Promise<ChildRun> {
  return runNode([BIN, ...args], { cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-rules-test-${process.pid}` }, timeoutMs: 60_000 });
}

async function inProcess(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRules(args, { stdout: (line) => out.push(line), stderr: (line) => err.push(line), env: { ...process.env, ...env } });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function systemClamdAnswers(): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  return answers.includes(true);
}

describe.skipIf(findClamscan() === null)('verdict rules', () => {
  it('checks each rule with ClamAV at import: the good ones load and detect, the bad ones are refused with file, line and why', async (context) => {
    const data = join(dir.path, 'data');
    // Verdict's own database folder, as `verdict update` leaves it (here: the EICAR test signature).
    await writeEicarDatabase(join(data, 'clamav-db'));
    const rules = join(dir.path, 'mine.yar');
    await writeFile(rules, RULES);

    const imported = await verdict(['rules', 'import', '--json', '--data-dir', data, rules]);
    expect(imported.code, imported.stderr).toBe(1);
    const answer = JSON.parse(imported.stdout) as { accepted: unknown[]; refused: unknown[] };
    expect(answer.accepted).toEqual([
      { name: 'VerdictGood', file: rules, line: 4 },
      { name: 'VerdictAfterBroken', file: rules, line: 22 },
    ]);
    expect(answer.refused).toEqual([
      { name: 'VerdictBroken', file: rules, line: 19, code: 'syntax', detail: 'syntax error, unexpected _AND_' },
      { name: 'VerdictPe', file: rules, line: 34, code: 'module', detail: 'undefined identifier "pe"' },
      { name: 'VerdictMany', file: rules, line: 37, code: 'unsupported', detail: 'yara rule contains too many subsigs (70, max: 64)' },
    ]);

    const list = await inProcess(['list', '--data-dir', data]);
    expect(list.stdout.split('\n')).toEqual([`VerdictGood  (${rules}:4)`, `VerdictAfterBroken  (${rules}:22)`]);
    const de = await inProcess(['import', '--data-dir', data, rules], { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' });
    expect(de.code).toBe(1);
    expect(de.stdout).toContain(`ABGELEHNT VerdictPe  (${rules}:34): sie nutzt ein YARA-Modul, das ClamAV nicht unterstützt: undefined identifier "pe"`);
    expect(de.stdout).toContain(`ANGENOMMEN VerdictGood  (${rules}:4)`);

    if (findClamd() === null || (await systemClamdAnswers())) return context.skip();
    const files = join(dir.path, 'files');
    await mkdir(files);
    const good = join(files, 'good.txt');
    const after = join(files, 'after.txt');
    const plain = join(files, 'plain.txt');
    await writeFile(good, 'this holds verdict-yara-good in lower case\n');
    await writeFile(after, 'VERDICT-AFTER-42\n');
    await writeFile(plain, 'VERDICT-YARA-BROKEN and VERDICT-MANY-001, which no loaded rule knows\n');
    const scan = await verdict(['scan', '--engine', 'auto', '--data-dir', data, good, after, plain]);
    expect(scan.code, scan.stderr).toBe(1);
    // Findings read YARA: RULE (FILE).
    expect(scan.stdout).toContain(`THREAT ${good}  (infected: YARA: VerdictGood (mine.yar))`);
    expect(scan.stdout).toContain(`THREAT ${after}  (infected: YARA: VerdictAfterBroken (mine.yar))`);
    const json = await verdict(['scan', '--engine', 'auto', '--json', '--data-dir', data, good]);
    expect(JSON.parse(json.stdout)).toMatchObject({ findings: [{ name: 'YARA.VerdictGood.UNOFFICIAL', ruleFile: 'mine.yar' }] });
    expect(scan.stdout).toContain(`CLEAN  ${plain}  (clean)`);

    const removed = await inProcess(['remove', '--data-dir', data, 'VerdictGood']);
    expect(removed.code).toBe(0);
    const again = await verdict(['scan', '--engine', 'auto', '--force', '--data-dir', data, good]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`CLEAN  ${good}  (clean)`);
  });

  it('bad arguments exit 2; removing what is not there exits 1', async () => {
    const data = join(dir.path, 'data-args');
    for (const args of [[], ['import'], ['list', 'x'], ['remove'], ['nope']]) expect((await inProcess(['--data-dir', data, ...args])).code, args.join(' ')).toBe(2);
    expect((await inProcess(['import', '--data-dir', data, dir.path + '/none'])).code).toBe(2);
    expect((await inProcess(['remove', '--data-dir', data, 'Nothing'])).code).toBe(1);
  });

  it("refuses to import while Verdict's own folder has no signatures of its own: the rules alone would replace the system's", async () => {
    const data = join(dir.path, 'data-empty');
    const rules = join(dir.path, 'alone.yar');
    await writeFile(rules, 'rule Alone { strings: $a = "VERDICT-ALONE" condition: $a }\n');
    const run = await inProcess(['import', '--data-dir', data, rules]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("rules alone would replace the system's signatures, so none were imported");
    expect((await inProcess(['list', '--json', '--data-dir', data])).stdout).toBe('{"rules":[]}');
  });
});

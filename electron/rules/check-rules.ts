// Each YARA rule checked at import by ClamAV's own loader (issue 28 §4): every rule goes into a
// file of its own (with its file's `import` lines), and one `clamscan -d DIR` over a one-byte file
// loads them all; libclamav names each failure by that file and line (a syntax error, a module
// it does not know) or by the rule (a rule it skips: no usable string, more than 64 strings, …).
// One file per rule, because in one file a syntax error also breaks the rules after it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { splitYara } from './split-yara.ts';

export const REFUSAL_CODES = ['syntax', 'module', 'unsupported', 'duplicate', 'not_a_rule', 'include'] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface AcceptedRule {
  name: string;
  file: string;
  line: number;
  text: string;
}

export interface RefusedRule {
  /** null: text that is not a rule. */
  name: string | null;
  file: string;
  line: number;
  code: RefusalCode;
  /** libclamav's own words (or the text in question), in English. */
  detail: string;
}

export interface RulesCheck {
  accepted: AcceptedRule[];
  refused: RefusedRule[];
}

interface Candidate extends AcceptedRule {
  imports: string[];
  id: string;
}

/** `installed`: rule names already loaded (a rule by the same name would be ambiguous in findings). */
export async function checkYaraRules(sources: readonly { file: string; text: string }[], input: { clamscan: string; workDir: string; installed?: ReadonlySet<string>; timeoutMs?: number }): Promise<RulesCheck> {
  const refused: RefusedRule[] = [];
  const candidates: Candidate[] = [];
  const names = new Map<string, string>([...(input.installed ?? [])].map((name) => [name, 'already imported']));
  for (const source of sources) {
    const split = splitYara(source.text);
    for (const stray of split.stray) refused.push({ name: null, file: source.file, line: stray.line, code: 'not_a_rule', detail: stray.text });
    for (const include of split.includes) refused.push({ name: null, file: source.file, line: lineOf(source.text, include), code: 'include', detail: include });
    for (const rule of split.rules) {
      const earlier = names.get(rule.name);
      if (earlier !== undefined) {
        refused.push({ name: rule.name, file: source.file, line: rule.line, code: 'duplicate', detail: earlier });
        continue;
      }
      names.set(rule.name, `${source.file}:${rule.line}`);
      candidates.push({ ...rule, file: source.file, imports: split.imports, id: `r${String(candidates.length).padStart(5, '0')}` });
    }
  }
  const failures = await loadEach(candidates, input);
  const accepted: AcceptedRule[] = [];
  for (const candidate of candidates) {
    const failure = failures.get(candidate.id) ?? failures.get(`name:${candidate.name}`);
    if (!failure) {
      accepted.push({ name: candidate.name, file: candidate.file, line: candidate.line, text: candidate.text });
      continue;
    }
    // libclamav's line is in the rule's own file, after its imports.
    const line = failure.line === null ? candidate.line : candidate.line + Math.max(0, failure.line - 1 - candidate.imports.length);
    const module = /undefined identifier "(\w+)"/.exec(failure.detail)?.[1];
    const code: RefusalCode = failure.kind === 'unsupported' ? 'unsupported' : module !== undefined && candidate.imports.some((entry) => entry.includes(`"${module}"`)) ? 'module' : 'syntax';
    refused.push({ name: candidate.name, file: candidate.file, line, code, detail: failure.detail });
  }
  refused.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { accepted, refused };
}

type Failure = { kind: 'parse' | 'unsupported'; line: number | null; detail: string };

/** clamscan over one file per rule; each failure by the rule's file id, or by `name:<rule>`. */
async function loadEach(candidates: readonly Candidate[], input: { clamscan: string; workDir: string; timeoutMs?: number }): Promise<Map<string, Failure>> {
  const failures = new Map<string, Failure>();
  if (candidates.length === 0) return failures;
  const dir = await mkdtemp(join(input.workDir, 'verdict-rules-check-'));
  try {
    for (const candidate of candidates) await writeFile(join(dir, `${candidate.id}.yar`), `${[...candidate.imports, candidate.text].join('\n')}\n`);
    const target = join(input.workDir, 'verdict-rules-check.txt');
    await writeFile(target, 'x');
    const output = await run(input.clamscan, ['--database', dir, target], input.timeoutMs ?? 120_000);
    for (const line of output.split('\n')) {
      const parse = /yyerror\(\): .*?(r\d{5})\.yar line (\d+) (.*)$/.exec(line);
      if (parse?.[1] && parse[2] && parse[3]) {
        if (!failures.has(parse[1])) failures.set(parse[1], { kind: 'parse', line: Number(parse[2]), detail: parse[3].trim() });
        continue;
      }
      const skipped = /load_oneyara: (.*?),? (?:skipping )?YARA\.([A-Za-z0-9_]+)\s*$/.exec(line);
      if (skipped?.[1] && skipped[2]) {
        const key = `name:${skipped[2]}`;
        const before = failures.get(key);
        failures.set(key, { kind: 'unsupported', line: null, detail: before ? `${before.detail}; ${skipped[1]}` : skipped[1] });
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return failures;
}

function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      // 0 or 1: the databases loaded (libclamav's warnings name what it skipped); anything else: clamscan failed.
      if (error && typeof error.code === 'number' && error.code > 1) return reject(new Error(`clamscan: ${`${stderr}`.trim().split('\n').slice(-3).join(' / ') || error.message}`));
      if (error && typeof error.code !== 'number') return reject(error);
      resolve(`${stderr}\n${stdout}`);
    });
  });
}

function lineOf(text: string, fragment: string): number {
  const at = text.indexOf(fragment);
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}

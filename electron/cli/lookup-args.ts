// What `verdict lookup` is asked about: each argument is a SHA-256 (64 hexadecimal digits, any
// case) or a file. Every argument is checked before anything is read or sent, so a typo ends the
// run with exit 2 and nothing looked up. A file named by 64 hex digits is reached as ./NAME.
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { displayName } from '../../shared/display-name.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { CliExit } from './cli-options.ts';
import type { LookupTexts, TargetProblem } from './lookup-text.ts';

export const LOOKUP_USAGE = `Usage: verdict lookup [options] <files or SHA-256 hashes...>

A second opinion by hash: prints each file's SHA-256 and VirusTotal's page for it
(https://www.virustotal.com/gui/file/<sha256>). Nothing is ever uploaded: only the hash is sent.
With your VirusTotal API key (Settings › VirusTotal in Verdict's window; kept in the OS keychain),
also VirusTotal's last analysis: detections out of engines, and its date. The free API allows
4 lookups a minute: more wait their turn. An argument of 64 hexadecimal digits is a SHA-256;
a file with such a name is looked up as ./NAME.

Options:
  --json               one JSON object per argument on stdout
  --data-dir DIR       where Verdict's settings are (its language) (default: ${defaultDataDir()})
  -h, --help           this text

Exit codes: 0 VirusTotal's engines detect none of them (or VirusTotal does not know them); 1 engines
detect at least one (malicious); 2 bad arguments, a file could not be read, or VirusTotal could not
answer (key refused, too many lookups, unreachable); 3 no API key: only the links were printed.
The first that applies wins, in that order (1, 2, 3, 0).`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** One argument, understood: the hash itself, or the file to hash. */
export type LookupTarget = { kind: 'hash'; argument: string; sha256: string } | { kind: 'file'; argument: string; path: string };

const SHA256 = /^[0-9a-fA-F]{64}$/;
const HEX = /^[0-9a-fA-F]+$/;

export function parseLookupOptions(argv: string[]): { json: boolean; dataDir: string | undefined; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${LOOKUP_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new CliExit(LOOKUP_USAGE, 0);
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') throw new CliExit(`--data-dir needs a folder.\n\n${LOOKUP_USAGE}`);
  return { json: values.json, dataDir: values['data-dir'], positionals };
}

/** What an argument is by its text alone: a hash, or a path that must still be checked on disk. */
export function readTarget(argument: string): LookupTarget | { kind: 'empty' } {
  if (argument === '') return { kind: 'empty' };
  if (SHA256.test(argument)) return { kind: 'hash', argument, sha256: argument.toLowerCase() };
  return { kind: 'file', argument, path: argument };
}

/** Every argument understood, or CliExit (2) naming each one that is neither a SHA-256 nor a file. */
export async function checkTargets(positionals: readonly string[], texts: LookupTexts): Promise<LookupTarget[]> {
  if (positionals.length === 0) throw new CliExit(`${texts.nothingGiven}\n\n${LOOKUP_USAGE}`);
  const targets: LookupTarget[] = [];
  const problems: string[] = [];
  for (const argument of positionals) {
    const target = readTarget(argument);
    const problem = target.kind === 'empty' ? ({ kind: 'empty' } as const) : target.kind === 'file' ? await fileProblem(target.path) : null;
    if (problem) problems.push(texts.problem(problem));
    else targets.push(target as LookupTarget);
  }
  if (problems.length > 0) throw new CliExit(problems.join('\n'));
  return targets;
}

/** Why a path cannot be looked up (null: it is a file, to be read). */
async function fileProblem(path: string): Promise<TargetProblem | null> {
  const given = displayName(path);
  try {
    if ((await stat(fsPath(path))).isFile()) return null;
    return { kind: 'not_file', given };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return HEX.test(path) ? { kind: 'hex_length', given, length: path.length } : { kind: 'missing', given };
    return { kind: 'unreadable', given, detail: code ?? (error as Error).message };
  }
}

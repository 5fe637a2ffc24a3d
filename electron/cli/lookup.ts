// `verdict lookup <FILE|SHA256>...`: a second opinion by hash (issue 29 §4), as the window's
// "Look up on VirusTotal". Each file is hashed here (streamed); only its SHA-256 is ever sent,
// nothing is uploaded. Per argument: its name or hash, the SHA-256, VirusTotal's page, and with
// the user's key VirusTotal's last analysis. Exit codes: see LOOKUP_USAGE (1 detected wins).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { displayName } from '../../shared/display-name.ts';
import { virusTotalFileUrl, type VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { pathBytesOf } from '../file-names/written-names.ts';
import { dataDirLanguage } from './cli-language.ts';
import { jsonLineText } from './format.ts';
import { runCli, type CliIo } from './cli-options.ts';
import { checkTargets, parseLookupOptions, type LookupTarget } from './lookup-args.ts';
import { createAsker, readVirusTotalKey, virusTotalBaseUrl, type Asker, type LookupTuning } from './lookup-asker.ts';
import { lookupTexts, type LookupTexts } from './lookup-text.ts';

export { LOOKUP_USAGE } from './lookup-args.ts';

/** One argument's outcome: its hash (null when the file could not be read) and VirusTotal's answer. */
interface Looked {
  target: LookupTarget;
  sha256: string | null;
  answer: VirusTotalAnswer | null;
  readError: string | null;
}

export function runLookup(argv: string[], io: CliIo, tuning: LookupTuning = {}): Promise<number> {
  return runCli(io, () => lookup(argv, io, tuning));
}

async function lookup(argv: string[], io: CliIo, tuning: LookupTuning): Promise<number> {
  const options = parseLookupOptions(argv);
  const dataDir = resolve(options.dataDir ?? defaultDataDir(io.env));
  io.language = dataDirLanguage(dataDir, io.env);
  const texts = lookupTexts(io.language);
  const targets = await checkTargets(options.positionals, texts);
  const baseUrl = virusTotalBaseUrl(io.env, tuning);
  const { key, problem } = await readVirusTotalKey(io);
  if (problem !== null) io.stderr(texts.keychainProblem(problem));
  if (key === null) io.stderr(texts.noKey);
  const asker: Asker | null =
    key === null
      ? null
      : createAsker(baseUrl, key, tuning, {
          tooMany: (attempt, max) => io.stderr(texts.tooMany(attempt, max)),
          waiting: (at) => io.stderr(texts.waiting(new Date(at).toTimeString().slice(0, 8))),
        });
  const looked: Looked[] = [];
  try {
    for (const target of targets) {
      const one = await lookupOne(target, asker);
      looked.push(one);
      for (const line of options.json ? [jsonLine(one)] : plainLines(one, texts)) io.stdout(line);
    }
  } finally {
    asker?.close();
  }
  return exitCodeOf(looked);
}

async function lookupOne(target: LookupTarget, asker: Asker | null): Promise<Looked> {
  let sha256: string;
  if (target.kind === 'hash') sha256 = target.sha256;
  else {
    try {
      sha256 = await fileSha256(target.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { target, sha256: null, answer: null, readError: typeof code === 'string' ? code : (error as Error).message };
    }
  }
  return { target, sha256, answer: asker ? await asker.ask(sha256) : { kind: 'no_key' }, readError: null };
}

/** The file's SHA-256, read as a stream (any size, little memory), by its exact bytes. */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(fsPath(path)), hash);
  return hash.digest('hex');
}

/** First that applies: 1 detected; 2 not read or not answered; 3 no key (links only); 0. */
export function exitCodeOf(looked: readonly Looked[]): number {
  const answers = looked.map((one) => one.answer);
  if (answers.some((answer) => answer?.kind === 'known' && answer.malicious > 0)) return 1;
  if (answers.some((answer) => answer === null || ['key_refused', 'quota', 'unavailable'].includes(answer.kind))) return 2;
  if (answers.some((answer) => answer?.kind === 'no_key')) return 3;
  return 0;
}

/** `NAME` (or the hash), then indented: the SHA-256, the link, and VirusTotal's answer. */
function plainLines(one: Looked, texts: LookupTexts): string[] {
  const heading = one.target.kind === 'file' ? displayName(one.target.path) : one.target.sha256;
  if (one.sha256 === null) return [`${heading}  ${texts.readFailed(one.readError ?? '?')}`];
  const lines = [heading];
  if (one.target.kind === 'file') lines.push(`  SHA-256 ${one.sha256}`);
  lines.push(`  ${virusTotalFileUrl(one.sha256)}`);
  if (one.answer && one.answer.kind !== 'no_key') lines.push(`  ${texts.answer(one.answer)}`);
  return lines;
}

/** One object per argument: valid UTF-8 (a name's raw bytes beside it in base64 when it is not), controls escaped. */
function jsonLine(one: Looked): string {
  const file = one.target.kind === 'file' ? one.target.path : null;
  const fileBytes = file === null ? undefined : pathBytesOf(file);
  const line = {
    argument: one.target.argument,
    file,
    ...(fileBytes === undefined ? {} : { fileBytes }),
    sha256: one.sha256,
    url: one.sha256 === null ? null : virusTotalFileUrl(one.sha256),
    virusTotal: one.answer,
    error: one.readError,
  };
  // As the scan CLI's lines: a bidi control in a name must not reorder the terminal's line.
  return jsonLineText(line);
}

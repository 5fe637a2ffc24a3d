// `npm run -s status -- [--json] [--data-dir DIR] [--engine auto|clamd|builtin] [--clamav-db DIR]`
// The protection state and the engine's facts, with a self-test run now (EICAR,
// scanned by the engine found). Exit 0 protected; 1 outdated, limited, not running
// or failing (the engine missed EICAR); 2 bad arguments or an error. Verdict's own clamd, when
// this run had to start it to ask, is stopped again before exit.
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import { withSelfTest, type SelfTestResult } from '../../shared/engine/self-test.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { coverageLimitsFor, coverageLimitsText, type CoverageLimits } from '../engine/conf/coverage-limits.ts';
import { engineStatus } from '../engine/engine-status.ts';
import { protectionActionText, protectionReasonText, streamLimitText } from '../engine/protection-text.ts';
import { dataDirLanguage } from './cli-language.ts';
import { statusSelfTest } from './status-self-test.ts';
import { parseStatusArgs, StatusArgsError } from './status-args.ts';
import { clamdWords } from './clamd-words.ts';
import { clamdChoiceFor } from './settings-clamd.ts';
import { engineOptionsForChoice } from '../engine/clamd-choice-engine.ts';

export interface StatusIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

export async function runStatus(argv: string[], io: StatusIo): Promise<number> {
  let args;
  try {
    args = parseStatusArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof StatusArgsError)) throw error;
    (error.exitCode === 0 ? io.stdout : io.stderr)(error.message);
    return error.exitCode;
  }
  let result;
  try {
    const choice = engineOptionsForChoice(clamdChoiceFor(args.dataDir, args.clamd));
    result = await engineStatus({ kind: args.engine, dataDir: args.dataDir, clamavDb: args.clamavDb, ...choice });
  } catch (error) {
    io.stderr(`Could not determine the engine: ${(error as Error).message}`);
    return 2;
  }
  try {
    const tested = await statusSelfTest(result.status);
    const engine = tested.transport === null ? result.status.engine : { ...result.status.engine, transport: tested.transport };
    const status = withSelfTest({ ...result.status, engine }, tested.result);
    const language = dataDirLanguage(args.dataDir, io.env);
    if (args.json) io.stdout(JSON.stringify(statusJson(status, language)));
    else for (const line of statusLines(status, result.databaseDir, language, coverageLimitsFor(status.engine.source))) io.stdout(line);
    return status.state === 'protected' ? 0 : 1;
  } finally {
    await result.started?.close();
  }
}

/** The one object `--json` prints: the issue's shape, nothing more. */
export function statusJson(status: ProtectionStatus, language: Language = 'en') {
  const { engine } = status;
  return {
    state: status.state,
    engine: {
      name: engine.name,
      source: engine.source,
      where: engine.where,
      version: engine.version,
      signatures: engine.signatures,
      /** How files reach clamd: `descriptor` (FILDES) or `stream` (INSTREAM); null when not ClamAV or not reached. */
      transport: engine.transport === undefined ? null : engine.transport === 'fildes' ? 'descriptor' : 'stream',
    },
    reason: [protectionReasonText(status, language), protectionActionText(status, language), streamLimitText(status, language)].filter(Boolean).join(' '),
    /** This run's EICAR test of the engine: at, result (passed, failed, error), engine, detail, durationMs; null when none could run. */
    selfTest: status.selfTest ?? null,
  };
}

const WORDS = {
  en: {
    protection: 'Protection',
    engine: 'Engine',
    basic: 'basic checks (EICAR test file only)',
    at: 'at',
    signatures: 'Signatures',
    signaturesOf: (version: number, date: string, days: number) => `version ${version} of ${date} (${days === 1 ? '1 day' : `${days} days`} old)`,
    noSignatures: 'no official signatures (no version or date reported)',
    databaseFolder: 'Database folder',
    knownBy: 'Signatures known by',
    byDatabases: 'the database files clamd loaded, and its VERSION (a changed custom database or feed is noticed)',
    byVersion: (versioned: boolean) =>
      `clamd's VERSION alone: Verdict cannot read this clamd's database folder, so a changed custom database or feed is not noticed${versioned ? '' : ', and with no signature version every file is read again at each scan'}`,
    reason: 'Reason',
    whatToDo: 'What to do',
    limit: 'Limit',
    scanLimits: 'Scan limits',
    selfTest: 'Self-test',
    selfTestResult: (test: SelfTestResult) =>
      test.result === 'passed' ? `passed: the EICAR test file was detected (${test.detail})` : test.result === 'failed' ? 'FAILED: the EICAR test file was not detected' : `could not run: ${test.detail}`,
  },
  de: {
    protection: 'Schutz',
    engine: 'Engine',
    basic: 'Basisprüfungen (nur die EICAR-Testdatei)',
    at: 'unter',
    signatures: 'Signaturen',
    signaturesOf: (version: number, date: string, days: number) => `Version ${version} vom ${date} (${days === 1 ? '1 Tag' : `${days} Tage`} alt)`,
    noSignatures: 'keine offiziellen Signaturen (weder Version noch Datum gemeldet)',
    databaseFolder: 'Datenbankordner',
    knownBy: 'Signaturen erkannt an',
    byDatabases: 'den Datenbankdateien, die clamd geladen hat, und seiner VERSION (eine geänderte eigene Datenbank oder ein geänderter Feed fällt auf)',
    byVersion: (versioned: boolean) =>
      `nur der VERSION von clamd: Verdict kann den Datenbankordner dieses clamd nicht lesen, daher fällt eine geänderte eigene Datenbank oder ein geänderter Feed nicht auf${versioned ? '' : ', und ohne Signaturversion wird jede Datei bei jeder Prüfung neu gelesen'}`,
    reason: 'Grund',
    whatToDo: 'Was tun',
    limit: 'Grenze',
    scanLimits: 'Prüfgrenzen',
    selfTest: 'Selbsttest',
    selfTestResult: (test: SelfTestResult) =>
      test.result === 'passed'
        ? `bestanden: Die EICAR-Testdatei wurde erkannt (${test.detail})`
        : test.result === 'failed'
          ? 'FEHLGESCHLAGEN: Die EICAR-Testdatei wurde nicht erkannt'
          : `konnte nicht laufen: ${test.detail}`,
  },
} as const;

/** The state as `status` prints it; the state's own word (protected, outdated, …) stays as `--json` spells it. */
/** `coverage`: the clamd's scan limits (coverage-limits.ts); undefined leaves the line out. */
export function statusLines(status: ProtectionStatus, databaseDir: string | null, language: Language = 'en', coverage?: CoverageLimits | null): string[] {
  const { engine } = status;
  const w = WORDS[language];
  const clamd = clamdWords(language);
  const lines = [`${w.protection}: ${status.state.replace('_', ' ')}`];
  if (engine.name === 'builtin') lines.push(`${w.engine}: ${w.basic}`);
  else lines.push(`${w.engine}: ClamAV${engine.version ? ` ${engine.version}` : ''}, ${clamd.sources[engine.source]} ${w.at} ${engine.where}`);
  if (engine.transport !== undefined) lines.push(`${clamd.reach}: ${clamd.how[engine.transport]}`);
  if (engine.name === 'clamav' && engine.version !== null) {
    const s = engine.signatures;
    lines.push(`${w.signatures}: ${s ? w.signaturesOf(s.version, s.date.slice(0, 10), s.ageDays) : w.noSignatures}`);
  }
  if (databaseDir) lines.push(`${w.databaseFolder}: ${databaseDir}`);
  // Issue 26 §6: what tells one signature set from another (the unchanged-file skip and verdict reuse depend on it).
  if (engine.name === 'clamav' && engine.version !== null) lines.push(`${w.knownBy}: ${engine.signatureBasis === 'databases' ? w.byDatabases : w.byVersion(engine.signatures !== null)}`);
  if (status.selfTest) lines.push(`${w.selfTest}: ${w.selfTestResult(status.selfTest)}`);
  lines.push(`${w.reason}: ${protectionReasonText(status, language)}`);
  const action = protectionActionText(status, language);
  if (action) lines.push(`${w.whatToDo}: ${action}`);
  const limit = streamLimitText(status, language);
  if (limit) lines.push(`${w.limit}: ${limit}`);
  if (engine.name === 'clamav' && coverage !== undefined) lines.push(`${w.scanLimits}: ${coverageLimitsText(coverage, language)}`);
  return lines;
}

if (import.meta.main) {
  process.exitCode = await runStatus(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  });
}

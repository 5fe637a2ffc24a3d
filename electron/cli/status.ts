// `npm run -s status -- [--json] [--data-dir DIR] [--engine auto|clamd|builtin] [--clamav-db DIR]`
// The protection state and the engine's facts. Exit 0 protected; 1 outdated,
// limited or not running; 2 bad arguments or an error. Verdict's own clamd, when
// this run had to start it to ask, is stopped again before exit.
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import { engineStatus } from '../local-service/engines/engine-status.ts';
import { protectionActionText, protectionReasonText, streamLimitText } from '../local-service/engines/protection-text.ts';
import { parseStatusArgs, StatusArgsError } from './status-args.ts';

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
    result = await engineStatus({ kind: args.engine, dataDir: args.dataDir, clamavDb: args.clamavDb });
  } catch (error) {
    io.stderr(`Could not determine the engine: ${(error as Error).message}`);
    return 2;
  }
  try {
    const { status } = result;
    if (args.json) io.stdout(JSON.stringify(statusJson(status)));
    else for (const line of statusLines(status, result.databaseDir)) io.stdout(line);
    return status.state === 'protected' ? 0 : 1;
  } finally {
    await result.started?.close();
  }
}

/** The one object `--json` prints: the issue's shape, nothing more. */
export function statusJson(status: ProtectionStatus) {
  const { engine } = status;
  return {
    state: status.state,
    engine: { name: engine.name, source: engine.source, where: engine.where, version: engine.version, signatures: engine.signatures },
    reason: [protectionReasonText(status), protectionActionText(status), streamLimitText(status)].filter(Boolean).join(' '),
  };
}

const SOURCE_WORDS = { configured: 'the configured clamd', system: 'the system clamd', own: "Verdict's own clamd", builtin: 'basic checks' } as const;

export function statusLines(status: ProtectionStatus, databaseDir: string | null): string[] {
  const { engine } = status;
  const lines = [`Protection: ${status.state.replace('_', ' ')}`];
  if (engine.name === 'builtin') lines.push('Engine: basic checks (EICAR test file only)');
  else lines.push(`Engine: ClamAV${engine.version ? ` ${engine.version}` : ''}, ${SOURCE_WORDS[engine.source]} at ${engine.where}`);
  if (engine.name === 'clamav' && engine.version !== null) {
    const s = engine.signatures;
    lines.push(s ? `Signatures: version ${s.version} of ${s.date.slice(0, 10)} (${s.ageDays === 1 ? '1 day' : `${s.ageDays} days`} old)` : 'Signatures: no official signatures (no version or date reported)');
  }
  if (databaseDir) lines.push(`Database folder: ${databaseDir}`);
  lines.push(`Reason: ${protectionReasonText(status)}`);
  const action = protectionActionText(status);
  if (action) lines.push(`What to do: ${action}`);
  const limit = streamLimitText(status);
  if (limit) lines.push(`Limit: ${limit}`);
  return lines;
}

if (import.meta.main) {
  process.exitCode = await runStatus(process.argv.slice(2), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  });
}

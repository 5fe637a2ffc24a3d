// The `status` CLI's options. Kept apart from cli-options.ts, which opens the core:
// `status` needs none of it and should answer fast.
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/data-dir.ts';
import type { EngineKind } from '../engine/select-engine.ts';
import type { ClamdAddress } from '../../shared/engine/clamd-address.ts';
import { readClamdOption } from './clamd-option.ts';
import { dataDirLanguage } from './cli-language.ts';

export const STATUS_USAGE = `Usage: npm run -s status -- [options]

Shows the malware engine Verdict would use and how well it protects: the state,
the engine (ClamAV: where it runs, its version, its signatures and their age), and
a self-test run now: the engine scans the EICAR test file; missing it is "failing".

Options:
  --json               one JSON object: state, engine, reason, selfTest
  --data-dir DIR       Verdict's data directory (default: ${defaultDataDir()})
  --engine KIND        auto (default: configured clamd, a system clamd, Verdict's own, else basic checks), clamd or builtin
  --clamav-db DIR      the signature folder for Verdict's own clamd
  --clamd ADDRESS      the clamd to ask: unix:/path/to/clamd.sock or tcp:HOST:PORT (default: the settings' choice)
  -h, --help           this text

Exit codes: 0 protected; 1 outdated, limited, not running or failing (the engine missed the EICAR test file); 2 bad arguments or an error.`;

export interface StatusArgs {
  json: boolean;
  dataDir: string;
  engine: EngineKind;
  clamavDb: string | undefined;
  /** --clamd, read; undefined: the settings' choice. */
  clamd: ClamdAddress | undefined;
}

/** A problem with the arguments: the message for stderr and the exit code (2, or 0 for --help). */
export class StatusArgsError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

const ENGINE_KINDS: readonly string[] = ['auto', 'clamd', 'builtin'];

export function parseStatusArgs(argv: string[], env: NodeJS.ProcessEnv): StatusArgs {
  let values: { json?: boolean; 'data-dir'?: string; engine?: string; 'clamav-db'?: string; clamd?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        engine: { type: 'string' },
        'clamav-db': { type: 'string' },
        clamd: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new StatusArgsError(`${(error as Error).message}\n\n${STATUS_USAGE}`);
  }
  if (values.help) throw new StatusArgsError(STATUS_USAGE, 0);
  const engine = values.engine ?? 'auto';
  if (!ENGINE_KINDS.includes(engine)) throw new StatusArgsError(`--engine must be auto, clamd or builtin (got ${engine}).`);
  for (const name of ['data-dir', 'clamav-db'] as const) {
    if (values[name] !== undefined && values[name].trim() === '') throw new StatusArgsError(`--${name} needs a folder.`);
  }
  if (values['clamav-db'] !== undefined && engine === 'builtin') throw new StatusArgsError('--clamav-db is for ClamAV: it cannot be combined with --engine builtin.');
  const dataDir = values['data-dir'] ?? defaultDataDir(env);
  const clamd = readClamdOption(values.clamd, dataDirLanguage(dataDir, env));
  if (!clamd.ok) throw new StatusArgsError(clamd.message);
  if (clamd.address !== undefined && engine === 'builtin') throw new StatusArgsError('--clamd names a clamd: it cannot be combined with --engine builtin.');
  return { json: values.json ?? false, dataDir, engine: engine as EngineKind, clamavDb: values['clamav-db'], clamd: clamd.address };
}

// The real core for the e2e tests: createCore() in a temp data dir, with the
// embedded local service scanning through a real clamd (the test signature
// database from test/support/clamd.ts). Without clamd installed (and outside
// CI, where startClamd throws instead), the service's built-in engine is used.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCore, type CoreInternals, type CoreTuning } from '../../../electron/core/create-core.ts';
import type { CoreOptions } from '../../../electron/core/core.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';

export interface RealCore {
  core: CoreInternals;
  dataDir: string;
  close(): Promise<void>;
}

/** One clamd for a test file; null when it is not installed (the builtin engine stands in). */
export const startEngine = (): Promise<RunningClamd | null> => startClamd();

export async function startRealCore(options: {
  clamd: RunningClamd | null;
  /** Also `engine` and `clamdSocket`, to point the service at another clamd than the file's. */
  localService?: NonNullable<CoreOptions['localService']>;
  tuning?: CoreTuning;
  /** Runs on the empty data dir before the core opens it (e.g. seeding the history). */
  prepare?: (dataDir: string) => void | Promise<void>;
}): Promise<RealCore> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'verdict-e2e-core-'));
  await options.prepare?.(dataDir);
  const engine = options.clamd ? { engine: 'clamd' as const, clamdSocket: options.clamd.socketPath } : { engine: 'builtin' as const };
  const core = await createCore(
    {
      dataDir,
      // A keychain entry of its own, so a test never touches a real key.
      keychainService: `verdict-e2e-${randomUUID()}`,
      localService: { ...engine, ...options.localService },
    },
    { watchSettleMs: 200, logLevel: 'warn', ...options.tuning },
  );
  return {
    core,
    dataDir,
    async close() {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// The set-up the real-core tests share: a fresh temp dir per test and cores opened
// on `<dir>/data` with the embedded engine and a test keychain service. Cores and
// whatever a test registers close after the test, last first; then the dir goes.
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { createCore, type CoreInternals, type CoreTuning } from '../../../electron/core/create-core.ts';
import { useCleanups, type OnCleanup } from '../../support/cleanups.ts';
import { FAST, tempDir } from '../scans/harness.ts';

type CoreOptions = Parameters<typeof createCore>[0];

export interface CoreFixture {
  /** This test's temp dir (a new one for every test). */
  dir: { readonly path: string };
  /** The data dir `open` uses: `<dir>/data`. */
  dataDir(): string;
  /** A core on this test's data dir, closed after the test; `options` override the defaults. */
  open(tuning?: CoreTuning, options?: Partial<CoreOptions>): Promise<CoreInternals>;
  onCleanup: OnCleanup;
}

/** Registers the beforeEach/afterEach hooks; call at the top of a test file. */
export function useCoreFixture(prefix: string): CoreFixture {
  const onCleanup = useCleanups();
  let current: Awaited<ReturnType<typeof tempDir>> | undefined;
  beforeEach(async () => {
    const created = await tempDir(prefix);
    current = created;
    // Registered first, so it runs after every other clean-up of the test.
    onCleanup(() => created.remove());
  });
  const dir = {
    get path(): string {
      if (!current) throw new Error('the core fixture has no temp dir outside a test');
      return current.path;
    },
  };
  const dataDir = () => join(dir.path, 'data');
  async function open(tuning: CoreTuning = FAST, options: Partial<CoreOptions> = {}): Promise<CoreInternals> {
    const core = await createCore({ dataDir: dataDir(), keychainService: `verdict-test-${process.pid}`, localService: { engine: 'builtin' }, ...options }, tuning);
    onCleanup(() => core.close());
    return core;
  }
  return { dir, dataDir, open, onCleanup };
}

// The watch tests' clean-up: temp folders and watchers made during a test go
// after it, last first (watchers close before their folders are removed).
import fs from 'node:fs/promises';
import { useCleanups, type OnCleanup } from '../../../support/cleanups.ts';
import { makeTempDir } from './collector.ts';

/** Registers the afterEach hook; call at the top of a test file. */
export function useTempFolders(): { tempDir(): Promise<string>; onCleanup: OnCleanup } {
  const onCleanup = useCleanups();
  async function tempDir(): Promise<string> {
    const dir = await makeTempDir();
    onCleanup(() => fs.rm(dir, { recursive: true, force: true }));
    return dir;
  }
  return { tempDir, onCleanup };
}

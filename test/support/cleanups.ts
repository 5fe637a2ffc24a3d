// Per-test clean-up: what a test (or a fixture) registers here runs after the
// test, last registered first, so things close before the folders they live in go.
import { afterEach } from 'vitest';

export type OnCleanup = (cleanup: () => unknown) => void;

/** Registers the afterEach hook; call at the top of a test file (or from a fixture). */
export function useCleanups(): OnCleanup {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return (cleanup) => void cleanups.push(cleanup);
}

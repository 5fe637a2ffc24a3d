import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Each test process starts and ends many worker threads (every core has a service and a fingerprint
// thread), and from source each of them strips TypeScript with Node's WebAssembly build of swc. Under
// load, V8 then crashed a test process now and then (SIGSEGV while tiering up a wasm-to-JS wrapper and
// freeing wasm code of an isolate that had ended: a core dump, 2026-11-26). The app's bundled threads
// run no wasm. These flags keep V8 off that path in tests.
const execArgv = ['--wasm-wrapper-tiering-budget=2147483647', '--no-wasm-code-gc'];

// The threads the app starts (its service, engine and fingerprint threads) load TypeScript sources natively,
// stripped each time by that wasm build: hundreds of cores start in a run. Node's compile cache keeps them
// stripped and compiled (keyed by each file's content; the test processes and their threads inherit the variable),
// as bin/verdict.mjs does for the CLI. A service thread's modules loaded in 677 ms of CPU without it, 365 ms with it.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'verdict-test-compile-cache');

// One project per layer, mirroring the source tree (STYLE.md, practice 8).
export default defineConfig({
  test: {
    // Many files wait on clamd, child processes, a 90 s sync window or a minute's outage rather than compute, so
    // three run side by side on 2 cores. CI, 2026-11-29 (with the compile cache): 1,313 s with two, 1,191 s with three.
    maxWorkers: 3,
    projects: [
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], environment: 'node', execArgv } },
      { test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000, execArgv } },
      { test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'node', execArgv } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false, execArgv } },
    ],
  },
});

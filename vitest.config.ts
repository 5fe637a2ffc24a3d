import { defineConfig } from 'vitest/config';

// Each test process starts and ends many worker threads (every core has a service and a fingerprint
// thread), and from source each of them strips TypeScript with Node's WebAssembly build of swc. Under
// load, V8 then crashed a test process now and then (SIGSEGV while tiering up a wasm-to-JS wrapper and
// freeing wasm code of an isolate that had ended: a core dump, 2026-11-26). The app's bundled threads
// run no wasm. These flags keep V8 off that path in tests.
const execArgv = ['--wasm-wrapper-tiering-budget=2147483647', '--no-wasm-code-gc'];

// One project per layer, mirroring the source tree (STYLE.md, practice 8).
export default defineConfig({
  test: {
    // vitest's default is one worker on 2 cores; many files wait on clamd, child processes or a
    // 90 s sync window rather than compute, so two run side by side (CI: 1,234 s → about 1,000 s under load).
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], environment: 'node', execArgv } },
      { test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000, execArgv } },
      { test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'node', execArgv } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false, execArgv } },
    ],
  },
});

// One run of the real CLI as a user starts it (`node bin/verdict.mjs scan --json
// --engine builtin --data-dir D TREE`), a child process: stopped by a signal at
// its planned moment, the tree changed on schedule meanwhile, and killed when it
// outlives its time (a hang, which the round reports).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { applyOnSchedule } from './changes.ts';
import type { Change, EarlierRun } from './tree-spec.ts';

const BIN = join(import.meta.dirname, '../../../../../bin/verdict.mjs');

/** The test processes' V8 flags (vitest.config.ts says why): the CLI strips TypeScript with the same wasm. */
const NODE_FLAGS = ['--wasm-wrapper-tiering-budget=2147483647', '--no-wasm-code-gc'];

export interface RunRequest {
  root: Buffer;
  dataDir: string;
  stop: EarlierRun['stop'];
  changes: readonly Change[];
  /** Killed (and reported as hung) after this long. */
  timeoutMs: number;
  /** Node's compile cache for the CLI's modules, shared by a session's runs (start-up 1.5 → 0.9 s). */
  compileCache: string;
}

export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** The planned signal, when it came before the run ended. */
  stopped: 'SIGINT' | 'SIGKILL' | null;
  /** It outlived timeoutMs and was killed. */
  hung: boolean;
  /** The changes made (all of them: the late ones right after the run). */
  changes: Change[];
  ms: number;
}

export async function runCli(request: RunRequest): Promise<RunOutcome> {
  const args = [...NODE_FLAGS, BIN, 'scan', '--json', '--engine', 'builtin', '--data-dir', request.dataDir, request.root.toString()];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_COMPILE_CACHE: request.compileCache } });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  let running = true;
  void ended.then(() => (running = false));

  let stopped: RunOutcome['stopped'] = null;
  const stopTimer = request.stop
    ? setTimeout(() => {
        if (running && request.stop) stopped = child.kill(request.stop.signal) ? request.stop.signal : null;
      }, request.stop.afterMs)
    : undefined;
  let hung = false;
  const hangTimer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, request.timeoutMs);

  const changes = applyOnSchedule(request.root, request.changes, started, ended);
  const { code, signal } = await ended;
  clearTimeout(stopTimer);
  clearTimeout(hangTimer);
  return { code, signal, stdout: Buffer.concat(stdout), stderr, stopped, hung, changes: await changes, ms: performance.now() - started };
}

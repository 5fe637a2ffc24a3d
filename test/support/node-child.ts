/**
 * Runs a Node script (a crash test's child) to its end and collects what it printed. The child is
 * killed after `timeoutMs` so a hung child fails its test instead of the run; the caller reads
 * `signal` to tell a kill it planned (SIGKILL at a step) from a normal exit.
 */
import { spawn } from 'node:child_process';

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runNodeScript(script: string, env: Record<string, string>, timeoutMs: number): Promise<ChildRun> {
  return runNode([script], { env, timeoutMs });
}

export interface RunNodeOptions {
  /** Added to this process's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Which Node runs it (default: this one). */
  node?: string;
  /** Killed (SIGKILL) after this long, so a hung child fails its test; default 120 s. */
  timeoutMs?: number;
}

/** Runs `node ...args` to its end (a CLI as a user runs it) and collects what it printed. */
export function runNode(args: string[], options: RunNodeOptions = {}): Promise<ChildRun> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

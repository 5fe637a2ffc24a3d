// Child processes for cases that measure a process on its own (its memory, its
// CPU): started with a line protocol on stdout, always stopped, even when the
// runner dies (an exit hook kills what is left).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface LineChild {
  readonly pid: number;
  /** Resolves with the first stdout line (from now on) that matches; rejects if the child exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
  stop(): Promise<void>;
}

export function spawnLineChild(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): LineChild {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  live.add(child);
  let output = '';
  child.stderr?.on('data', (data: Buffer) => (output = (output + data.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => (live.delete(child), resolve())));
  const waiters = new Set<{ pattern: RegExp; resolve(match: RegExpExecArray): void }>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output = (output + line + '\n').slice(-4000);
    for (const waiter of waiters) {
      const match = waiter.pattern.exec(line);
      if (match) {
        waiters.delete(waiter);
        waiter.resolve(match);
      }
    }
  });
  return {
    pid: child.pid!,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const waiter = { pattern, resolve: (match: RegExpExecArray) => (clearTimeout(timer), resolve(match)) };
        const fail = (why: string) => () => (waiters.delete(waiter), reject(new Error(`${command} ${why}: ${output.trim()}`)));
        const timer = setTimeout(fail(`printed no line matching ${pattern} within ${timeoutMs} ms`), timeoutMs);
        waiters.add(waiter);
        void exited.then(() => {
          if (waiters.has(waiter)) {
            clearTimeout(timer);
            fail(`exited (${child.exitCode ?? child.signalCode})`)();
          }
        });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(forced);
    },
  };
}

/** Runs a Node script to its end and parses the last line it printed as JSON. */
export async function runNodeJson<T>(script: string, args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [script, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} printed no JSON result: ${stdout.slice(-2000)}`);
  }
}

export { run as execFileAsync };

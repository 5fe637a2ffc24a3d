// One run of Verdict's own clamd: spawn it with our config, record its pid, keep
// the end of what it says (the reason it refuses to start is there), and arrange
// that it dies with us even when we are SIGKILLed (a watchdog shell that reads a
// pipe from us sees EOF when we are gone and ends clamd).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { clamdAnswers } from './clamd-commands.ts';

export interface ClamdRun {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly startedAt: number;
  /** Resolves with clamd's exit code or signal when it exits. */
  readonly exited: Promise<string>;
  /** clamd's own words on why it stopped: its last error lines (stderr, then its log). */
  lastWords(): string;
  /** Resolves 'answering' at the first PONG, 'exited' if clamd ends first, 'timeout' after `timeoutMs`. */
  waitUntilAnswering(timeoutMs: number): Promise<'answering' | 'exited' | 'timeout'>;
  stop(graceMs?: number): Promise<void>;
}

export function startClamdRun(input: { clamdPath: string; configPath: string; pidPath: string; logPath: string; socketPath: string; watchdog: boolean }): ClamdRun {
  // Only this run's part of the log: earlier runs' errors are not this run's reason.
  const logOffset = fileSize(input.logPath);
  const child = spawn(input.clamdPath, [`--config-file=${input.configPath}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (data: Buffer) => {
    output = (output + data.toString('utf8')).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitedFlag = false;
  const exited = new Promise<string>((resolve) => {
    const done = (how: string) => {
      exitedFlag = true;
      watchdog?.kill('SIGKILL');
      resolve(how);
    };
    child.once('exit', (code, signal) => done(signal ?? `exit code ${code}`));
    child.once('error', (error) => done(error.message));
  });
  const pid = child.pid ?? -1;
  // Written before clamd loads anything: a SIGKILL during the load still leaves it.
  if (pid > 0) writeFileSync(input.pidPath, `${pid}\n`, { mode: 0o600 });
  const watchdog = input.watchdog && pid > 0 && process.platform !== 'win32' ? startWatchdog(pid) : null;
  const startedAt = Date.now();

  return {
    child,
    pid,
    startedAt,
    exited,
    lastWords: () => errorLines(output, readFrom(input.logPath, logOffset)),
    async waitUntilAnswering(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (exitedFlag) return 'exited';
        if (await clamdAnswers({ socketPath: input.socketPath }, 1_000)) return 'answering';
        if (exitedFlag) return 'exited';
        await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited]);
      }
      return 'timeout';
    },
    async stop(graceMs = 10_000) {
      if (exitedFlag) return;
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(forced);
    },
  };
}

function startWatchdog(pid: number): ChildProcess {
  const watchdog = spawn('/bin/sh', ['-c', 'read -r _; kill "$0" 2>/dev/null; sleep 5; kill -9 "$0" 2>/dev/null', String(pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  // Neither the watchdog nor its pipe may keep Verdict alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The last 8 KB written to `path` after `offset` (clamd's log; it may have rotated: then from the start). */
function readFrom(path: string, offset: number): string {
  try {
    const size = fileSize(path);
    const start = Math.max(size < offset ? 0 : offset, size - 8_000);
    const buffer = Buffer.alloc(size - start);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, start);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  } catch {
    return '';
  }
}

/** The last few lines that report an error, clamd's own words; else the last line it printed. */
export function errorLines(...texts: string[]): string {
  const lines = texts.join('\n').split('\n').map((line) => line.trim()).filter(Boolean);
  const errors = lines.filter((line) => /error/i.test(line));
  const chosen = errors.length > 0 ? [...new Set(errors)].slice(-3) : lines.slice(-1);
  return chosen.join(' | ').slice(0, 600);
}

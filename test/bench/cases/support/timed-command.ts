// A command run as a user runs it (Verdict's CLI, clamdscan), timed from spawn to exit, with the
// CPU it and its children used (bash's `times`, which waits for them) and clamd's CPU meanwhile.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunningClamd } from '../../../support/clamd.ts';
import { clamdPidOf } from './pipeline-run.ts';
import { cpuBetween, threadTimes } from './thread-cpu.ts';

export interface TimedRun {
  ms: number;
  code: number | null;
  /** CPU ms of the command and its children (user + system). */
  cpuMs: number;
  /** clamd's CPU ms meanwhile, or null without /proc. */
  clamdCpuMs: number | null;
  stdout: string;
}

const seconds = (text: string) => {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};

/** Runs `command args` with stdout kept in `outFile`; `times` writes the children's CPU beside it. */
export async function timedCommand(clamd: RunningClamd, command: string, args: string[], outFile: string): Promise<TimedRun> {
  const timesFile = path.join(path.dirname(outFile), `${path.basename(outFile)}.times`);
  const script = 'out="$1"; times_file="$2"; shift 2; "$@" > "$out"; code=$?; times > "$times_file"; exit $code';
  const clamdPid = clamdPidOf(clamd);
  const clamdBefore = clamdPid === null ? null : threadTimes(clamdPid);
  const started = performance.now();
  let stderr = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('bash', ['-c', script, 'timed', outFile, timesFile, command, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('close', resolve);
  });
  const ms = performance.now() - started;
  const clamdAfter = clamdPid === null ? null : threadTimes(clamdPid);
  // `times` prints the shell's own user/system, then its children's.
  const children = (await readFile(timesFile, 'utf8')).trim().split('\n')[1]?.split(/\s+/) ?? [];
  const cpuMs = (seconds(children[0] ?? '') + seconds(children[1] ?? '')) * 1000;
  const clamdCpuMs = clamdBefore && clamdAfter ? [...cpuBetween(clamdBefore, clamdAfter).values()].reduce((a, b) => a + b, 0) : null;
  const stdout = await readFile(outFile, 'utf8');
  if (code === null || code > 3) throw new Error(`${command} ${args.join(' ')} ended with ${code}: ${stderr}`);
  return { ms, code, cpuMs, clamdCpuMs, stdout };
}

// A clamd left running by a Verdict that was killed (SIGKILL, a crash, power cut
// of the session): the next start reads the pid file and ends that clamd, but only
// after checking that the pid still belongs to a clamd started with our config
// (pids are reused; killing a stranger's process is never acceptable).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAlive, readPid, removeFile } from './clamd-lock.ts';

export type LeftoverOutcome = 'none' | 'ended' | 'not_ours' | 'could_not_end';

export async function endLeftoverClamd(pidPath: string, configPath: string, waitMs = 10_000): Promise<{ outcome: LeftoverOutcome; pid: number | null }> {
  const pid = readPid(pidPath);
  if (pid === null || !isAlive(pid)) {
    removeFile(pidPath);
    return { outcome: 'none', pid };
  }
  if (!commandLineOf(pid)?.includes(configPath)) {
    removeFile(pidPath);
    return { outcome: 'not_ours', pid };
  }
  signal(pid, 'SIGTERM');
  if (!(await exited(pid, waitMs))) {
    signal(pid, 'SIGKILL');
    if (!(await exited(pid, 2_000))) return { outcome: 'could_not_end', pid };
  }
  removeFile(pidPath);
  return { outcome: 'ended', pid };
}

/** The process's command line: /proc on Linux, `ps` elsewhere; null when it cannot be read. */
export function commandLineOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    // No /proc (macOS): ask ps.
  }
  if (process.platform === 'win32') return null;
  try {
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 5_000 });
  } catch {
    return null;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone in the meantime.
  }
}

async function exited(pid: number, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid) || isZombie(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** An exited child not yet reaped by its parent still answers kill(0). */
function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

// The data directory on a small tmpfs that fills (root only), grown for the final
// run and always unmounted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Size for the final run: room for everything a round writes (a 100 MB upload included). */
const FINAL_SIZE = '256m';

export const canMount = (): boolean => process.getuid?.() === 0;

export function mountSmall(dir: string, kib: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir]);
}

export function growForFinalRun(dir: string): void {
  execFileSync('mount', ['-o', `remount,size=${FINAL_SIZE}`, dir]);
}

export function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // Still busy (a killed run's file handles close late): detach it now, it goes when they close.
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  }
}

/** Mount points in /proc/mounts, unescaped (a space is written \040). */
export function mountPoints(): string[] {
  return readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .map((field) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))));
}

// Real processes racing for one pid lock: several children, each holding the
// module loaded, are told "go" at the same moment, round after round, with no
// lock present, with a stale one (its pid is dead), with an empty one (a writer
// that crashed before writing its pid) and with a stale one whose first
// takeover claim was left by a process that died while holding it. Exactly one
// may win each round, and nothing but the lock is left behind.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../../electron/pid-lock/pid-lock.ts';
import { runNode } from '../../support/node-child.ts';

const CHILD = join(import.meta.dirname, 'fixtures', 'lock-taker.ts');
const MODULE = join(import.meta.dirname, '..', '..', '..', 'electron', 'pid-lock', 'pid-lock.ts');
const TAKERS = 6;
const ROUNDS = 200;

/** One long-lived child: a line sent, a line answered. */
class Taker {
  readonly child: ChildProcessWithoutNullStreams;
  readonly #lines: string[] = [];
  readonly #waiting: Array<(line: string) => void> = [];
  constructor(lockPath: string) {
    this.child = spawn(process.execPath, [CHILD, MODULE, lockPath], { stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
  }
  send(command: string): void {
    this.child.stdin.write(`${command}\n`);
  }
  answer(): Promise<string> {
    const line = this.#lines.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => this.#waiting.push(resolve));
  }
}

let dir: string;
let lockPath: string;
let takers: Taker[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-pid-lock-race-'));
  lockPath = join(dir, 'core.lock');
  takers = Array.from({ length: TAKERS }, () => new Taker(lockPath));
  // Every child has loaded the module before the first round.
  takers.forEach((taker) => taker.send('release'));
  await Promise.all(takers.map((taker) => taker.answer()));
});
afterAll(async () => {
  await Promise.all(takers.map((taker) => new Promise((resolve) => taker.child.once('exit', resolve).stdin.end())));
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  for (;;) {
    const run = await runNode(['-e', 'process.stdout.write(String(process.pid))'], { timeoutMs: 30_000 });
    const pid = Number(run.stdout);
    if (!isAlive(pid)) return pid;
  }
}

type Start = 'no lock' | 'a dead pid' | 'an empty file' | 'a dead pid and a dead claim';

/** One round: every child told "go" at once; answers how many won, and checks the losers name the winner. */
async function round(start: Start, dead: number): Promise<number> {
  if (start === 'a dead pid') await writeFile(lockPath, `${dead}\n`);
  if (start === 'an empty file') await writeFile(lockPath, '');
  if (start === 'a dead pid and a dead claim') {
    await writeFile(lockPath, `${dead}\n`);
    const stale = await stat(lockPath, { bigint: true });
    await writeFile(`${lockPath}.takeover-${stale.ino}-${stale.ctimeNs}.0`, `${dead}\n`);
  }
  for (const taker of takers) taker.send('go');
  const answers = await Promise.all(takers.map((taker) => taker.answer()));
  const winners = takers.filter((_, i) => answers[i] === 'won');
  if (winners.length === 1) {
    expect(answers.filter((answer) => answer !== 'won')).toEqual(Array(TAKERS - 1).fill(`lost ${winners[0]!.child.pid}`));
  }
  for (const taker of takers) taker.send('release');
  await Promise.all(takers.map((taker) => taker.answer()));
  // Released, and nothing left behind (no temporary or takeover file).
  const left = await readdir(dir);
  await Promise.all(left.map((name) => rm(join(dir, name), { force: true })));
  expect(winners.length === 1 ? left : []).toEqual([]);
  return winners.length;
}

describe('pid lock under a race of real processes', () => {
  it.each<Start>(['no lock', 'a dead pid', 'an empty file', 'a dead pid and a dead claim'])(`exactly one of ${TAKERS} wins each of ${ROUNDS} rounds, starting from %s`, async (start) => {
    const dead = await deadPid();
    const winnersPerRound: number[] = [];
    for (let i = 0; i < ROUNDS; i++) winnersPerRound.push(await round(start, dead));
    const doubleHolds = winnersPerRound.filter((count) => count > 1).length;
    const noWinner = winnersPerRound.filter((count) => count === 0).length;
    console.log(`pid lock race (${start}): ${ROUNDS} rounds, ${doubleHolds} with more than one holder, ${noWinner} with none`);
    expect({ doubleHolds, noWinner }).toEqual({ doubleHolds: 0, noWinner: 0 });
  });
});

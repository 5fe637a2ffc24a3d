// Case 8: a watcher idle on 100,000 files: time until ready, CPU over 30 s of
// idling, RSS after it; our folder watcher against chokidar alone on the same
// tree, each in a child process of its own. Per repetition the two start one
// after the other (alternating who goes first; ready times never overlap), and
// the second starts as the first begins idling, so their idle windows overlap.
// The tree lives on tmpfs (/dev/shm) when there is one: creating 100,000 files
// on this machine's disk takes minutes, and inotify, readdir and lstat behave the same.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchCase } from './bench-case.ts';
import { spawnLineChild } from './support/child-process.ts';
import { fromSamples } from './support/statistics.ts';

const CHILD = path.join(import.meta.dirname, 'support', 'watch-idle-child.ts');

interface IdleResult {
  readyMs: number;
  cpuPercent: number;
  rssMiB: number;
  heapMiB: number;
  events: number;
}

type Side = 'ours' | 'chokidar';

export const watchIdleCase: BenchCase = {
  id: 'watch-idle',
  title: 'watcher: idle on 100,000 files',
  needs: [],
  reps: { full: 5, quick: 2 },
  async run(context) {
    const files = context.quick ? 3_000 : 100_000;
    const idleMs = context.quick ? 2_000 : 30_000;
    const base = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
    const tree = mkdtempSync(path.join(base, 'verdict-bench-watch-tree-'));
    try {
      const made = performance.now();
      for (let index = 0; index < files; index++) {
        if (index % 1000 === 0) mkdirSync(path.join(tree, `d${index / 1000}`));
        writeFileSync(path.join(tree, `d${Math.floor(index / 1000)}`, `f${index}.txt`), '');
      }
      context.log(`watch idle: ${files} files in ${Math.ceil(files / 1000)} folders under ${base}, made in ${((performance.now() - made) / 1000).toFixed(1)} s`);

      const results: Record<Side, IdleResult[]> = { ours: [], chokidar: [] };
      for (let rep = 0; rep < context.reps; rep++) {
        const order: Side[] = rep % 2 === 0 ? ['ours', 'chokidar'] : ['chokidar', 'ours'];
        const pending: Array<Promise<void>> = [];
        for (const side of order) {
          const child = spawnLineChild(process.execPath, [CHILD, '--mode', side, '--dir', tree, '--idle-ms', String(idleMs)]);
          const result = child.waitFor(/^\{"readyMs".*\}$/, idleMs + 600_000);
          await child.waitFor(/^\{"ready":/, 600_000);
          pending.push(
            result.then((match) => {
              const figures = JSON.parse(match[0]) as IdleResult;
              results[side].push(figures);
              context.log(
                `watch idle rep ${rep + 1}/${context.reps} ${side}: ready ${figures.readyMs.toFixed(0)} ms, CPU ${figures.cpuPercent.toFixed(3)} %, RSS ${figures.rssMiB.toFixed(1)} MiB, ${figures.events} events while idle`,
              );
            }),
          );
          // Stopped once its result is in (it exits by itself then).
          void result.finally(() => child.stop()).catch(() => undefined);
        }
        await Promise.all(pending);
      }
      const pick = (side: Side, key: keyof IdleResult) => results[side].map((result) => result[key]);
      const events = [...pick('ours', 'events'), ...pick('chokidar', 'events')].reduce((sum, n) => sum + n, 0);
      const peerLabel = 'chokidar alone';
      return [
        fromSamples(
          {
            name: `CPU while idle, ${idleMs / 1000} s`,
            unit: '%',
            peerLabel,
            target: { on: 'ours', op: '<', value: 1, text: '≈ 0 (< 1 % of a core)' },
            // Hundredths of a percent on both sides: a ratio of two near-zero figures says nothing.
            noRatio: true,
            note: `user + system CPU of the watching process over the idle window (ours checks each folder every 2 s); ${events} file events while idle (expected 0)`,
          },
          pick('ours', 'cpuPercent'),
          pick('chokidar', 'cpuPercent'),
        ),
        fromSamples(
          { name: 'RSS after idling', unit: 'MiB', peerLabel, target: { on: 'ratio', op: '<=', value: 1.2, text: 'ratio ≤ 1.2' } },
          pick('ours', 'rssMiB'),
          pick('chokidar', 'rssMiB'),
        ),
        fromSamples(
          {
            name: `ready time, ${files.toLocaleString('en-US')} files`,
            unit: 'ms',
            peerLabel,
            target: { on: 'ratio', op: '<=', value: 1.2, text: 'ratio ≤ 1.2' },
            note: 'from creating the watcher until it watches (chokidar: its ready event), including its scan of the tree',
          },
          pick('ours', 'readyMs'),
          pick('chokidar', 'readyMs'),
        ),
      ];
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  },
};

// Case 7: a watched folder, from the last write of a file to its submission
// (its row queued in the pipeline: the core's first `record` event for the
// path), against the settle threshold. Through createCore with a watched folder,
// so the watcher's settle queue and the core's batching both count. A new file
// every 150 ms, each written in 3 chunks 30 ms apart (settle windows overlap).
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { createCore } from '../../../electron/core/create-core.ts';
import { DEFAULT_SETTLE_MS } from '../../../electron/watch/folder-watcher.ts';
import type { BenchCase } from './bench-case.ts';
import { fromSamples, median, percentile } from './support/statistics.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const watchLatencyCase: BenchCase = {
  id: 'watch-latency',
  title: 'watcher: last write to submission',
  needs: [],
  reps: { full: 3, quick: 2 },
  async run(context) {
    const files = context.quick ? 8 : 40;
    // The app's threshold; quick mode shortens it (the figure is relative to it).
    const settleMs = context.quick ? 500 : DEFAULT_SETTLE_MS;
    const p95s: number[] = [];
    const medians: number[] = [];
    for (let rep = 0; rep < context.reps; rep++) {
      const dir = await mkdtemp(path.join(context.tmp, 'rep-'));
      const folder = path.join(dir, 'watched');
      await mkdir(folder);
      const core = await createCore(
        { dataDir: path.join(dir, 'core'), keychainService: `verdict-bench-${randomUUID()}`, localService: { engine: 'builtin' } },
        { logLevel: 'warn', watchSettleMs: settleMs },
      );
      try {
        const queuedAt = new Map<string, number>();
        core.onEvent((event) => {
          if (event.type === 'record' && !queuedAt.has(event.record.path)) queuedAt.set(event.record.path, performance.now());
        });
        const added = await core.watch.add({ path: folder, scanExisting: false });
        if (!added.ok) throw new Error(`watch.add failed: ${added.error.message}`);
        await until(async () => {
          const list = await core.watch.list();
          return list.ok && list.value[0]?.state === 'watching';
        }, 'the folder to be watched', 30_000);

        const lastWrite = new Map<string, number>();
        const writers: Promise<void>[] = [];
        for (let index = 0; index < files; index++) {
          const file = path.join(folder, `file-${index}.bin`);
          writers.push(
            (async () => {
              const handle = await open(file, 'w');
              for (let chunk = 0; chunk < 3; chunk++) {
                await handle.write(Buffer.alloc(256 * 1024, chunk + index));
                if (chunk < 2) await sleep(30);
              }
              lastWrite.set(file, performance.now());
              await handle.close();
            })(),
          );
          await sleep(150);
        }
        await Promise.all(writers);
        await until(() => [...lastWrite.keys()].every((file) => queuedAt.has(file)), 'every file to be queued', settleMs * 5 + 20_000);
        const latencies = [...lastWrite].map(([file, at]) => queuedAt.get(file)! - at);
        p95s.push(percentile(latencies, 95));
        medians.push(median(latencies));
        context.log(`watch latency rep ${rep + 1}/${context.reps}: median ${medians.at(-1)!.toFixed(0)} ms, p95 ${p95s.at(-1)!.toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (threshold ${settleMs} ms)`);
      } finally {
        await core.close();
        await rm(dir, { recursive: true, force: true });
      }
    }
    const thresholds = p95s.map(() => settleMs);
    return [
      fromSamples(
        {
          name: `p95 latency, ${files} files`,
          unit: 'ms',
          peerLabel: 'settle threshold',
          target: { on: 'ours-peer', op: '<=', value: 250, text: 'p95 ≤ threshold + 250 ms' },
          note: 'last write → row queued (the core\'s first record event); median of the repetitions\' p95',
        },
        p95s,
        thresholds,
      ),
      fromSamples({ name: `median latency, ${files} files`, unit: 'ms', peerLabel: 'settle threshold' }, medians, thresholds),
    ];
  },
};

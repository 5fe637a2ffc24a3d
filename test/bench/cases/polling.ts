// Case 6: polling economy: 200 async scans through createCore against a local
// service whose engine takes 1–5 s per scan (uniformly random), all scanning at
// once; GET requests per scan, counted by the fault proxy in front of the service.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCore } from '../../../electron/core/create-core.ts';
import { BuiltinEngine } from '../../../electron/engine/builtin-engine.ts';
import type { ScanEngine } from '../../../electron/engine/engine.ts';
import { startLocalService } from '../../../electron/local-service/server.ts';
import { LOCAL_SERVICE_REQUEST_BUDGET } from '../../../electron/request-budget/request-budget.ts';
import { startFaultProxy } from '../../support/fault-proxy.ts';
import type { BenchCase } from './bench-case.ts';
import { fromSamples, median } from './support/statistics.ts';

const KEY = 'bench-polling-key-0123456789';

/** The built-in engine, after a random wait in [minMs, maxMs]: a slow engine of known speed. */
function slowEngine(minMs: number, maxMs: number): ScanEngine {
  const builtin = new BuiltinEngine();
  return {
    name: 'builtin',
    async scan(filePath, signal) {
      await new Promise((resolve) => setTimeout(resolve, minMs + Math.random() * (maxMs - minMs)));
      return builtin.scan(filePath, signal);
    },
  };
}

export const pollingCase: BenchCase = {
  id: 'polling',
  title: 'polling economy: 200 async scans, service taking 1–5 s each',
  needs: [],
  reps: { full: 3, quick: 2 },
  async run(context) {
    const scans = context.quick ? 12 : 200;
    const [minMs, maxMs] = context.quick ? [300, 1000] : [1000, 5000];
    const perScan: number[] = [];
    const posts: number[] = [];
    const seconds: number[] = [];
    for (let rep = 0; rep < context.reps; rep++) {
      const dir = await mkdtemp(path.join(context.tmp, 'rep-'));
      const folder = path.join(dir, 'files');
      await mkdir(folder);
      for (let i = 0; i < scans; i++) await writeFile(path.join(folder, `file-${i}.txt`), `polling ${rep} ${i} ${randomUUID()}\n`);
      const service = await startLocalService({
        apiKeys: [KEY],
        dataDir: path.join(dir, 'service'),
        engine: slowEngine(minMs, maxMs),
        rateLimit: false,
        // Every scan starts at once: its time is the engine's 1–5 s, not a queue.
        scanConcurrency: scans,
      });
      const proxy = await startFaultProxy(service.url);
      // The embedded service's budget (100 requests/s): the poller's own schedule, not held back by the
      // remote default of 10/s (under which each poll comes later and fewer are needed).
      const core = await createCore(
        { dataDir: path.join(dir, 'core'), keychainService: `verdict-bench-${randomUUID()}`, serviceOverride: { baseUrl: proxy.url, apiKey: KEY } },
        { watch: false, logLevel: 'warn', budget: LOCAL_SERVICE_REQUEST_BUDGET },
      );
      try {
        const started = performance.now();
        const submitted = await core.submit([folder], { origin: 'cli', mode: 'async' });
        if (!submitted.ok) throw new Error(`submit failed: ${submitted.error.message}`);
        await core.idle();
        seconds.push((performance.now() - started) / 1000);
        // The built-in engine's clean answer: basic checks only.
        const done = await core.scans.list({ verdicts: ['basic-only'], limit: 1 });
        if (!done.ok || done.value.total !== scans) throw new Error(`expected ${scans} scans judged by basic checks, got ${done.ok ? done.value.total : done.error.message}`);
        const gets = proxy.count({ method: 'GET' });
        perScan.push(gets / scans);
        posts.push(proxy.count({ method: 'POST' }));
        context.log(`polling rep ${rep + 1}/${context.reps}: ${gets} GETs for ${scans} scans (${(gets / scans).toFixed(2)} per scan), ${posts.at(-1)} POSTs, ${seconds.at(-1)!.toFixed(1)} s`);
      } finally {
        await core.close();
        await proxy.close();
        await service.close();
        await rm(dir, { recursive: true, force: true });
      }
    }
    return [
      fromSamples(
        {
          name: `GET requests per scan, ${scans} scans of ${minMs / 1000}–${maxMs / 1000} s`,
          unit: 'GET/scan',
          target: { on: 'ours', op: '<=', value: 3, text: '≤ 3' },
          note: `counted at a proxy in front of the service; POSTs ${median(posts)} (one per scan); ${median(seconds).toFixed(1)} s per run; request budget 100/s`,
        },
        perScan,
      ),
    ];
  },
};

// Case 5: throughput of the whole pipeline: 1,000 files of 4–64 KB handed to
// createCore (history, fingerprint, the embedded local service, the clamd
// engine on a real clamd), from submit() until every file is terminal, against
// `clamdscan --stream` over the same files and the same clamd. Files per second.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createCore } from '../../../electron/core/create-core.ts';
import { DEFAULT_CONCURRENCY } from '../../../electron/scans/pipeline.ts';
import { startClamd } from '../../support/clamd.ts';
import { fixtureDir } from '../../fixtures/engine-files.ts';
import { clamdscanFileList, writeSmallFiles } from '../clamd-engine.ts';
import type { BenchCase } from './bench-case.ts';
import { alternate, fromSamples } from './support/statistics.ts';
import { cpuBetween, describePerItem, pidWithArgument, threadTimes } from './support/thread-cpu.ts';

export const throughputCase: BenchCase = {
  id: 'throughput',
  title: 'throughput: 1,000 files of 4–64 KB, whole pipeline, clamd engine',
  needs: ['clamd', 'clamdscan'],
  reps: { full: 3, quick: 2 },
  async run(context) {
    const count = context.quick ? 60 : 1000;
    const clamd = await startClamd();
    if (!clamd) throw new Error('clamd did not start');
    const files = await fixtureDir('verdict-bench-throughput-');
    try {
      const { paths } = await writeSmallFiles(files, count);
      const fileList = path.join(context.tmp, 'files.txt');
      await writeFile(fileList, `${paths.join('\n')}\n`);
      const clamdscanConfig = path.join(context.tmp, 'clamdscan.conf');
      await writeFile(clamdscanConfig, `LocalSocket ${clamd.socketPath}\n`);
      // clamd's first scans are slower, and both sides should read from the page cache.
      await clamdscanFileList(clamdscanConfig, fileList);
      // Where our CPU goes, per thread (Linux; informational, not a figure): the service runs in a worker thread.
      const clamdPid = pidWithArgument(clamd.configPath);
      const cpuNotes: string[] = [];
      const peerClamdNotes: string[] = [];

      const ours = async (rep: number) => {
        const dataDir = await mkdtemp(path.join(context.tmp, 'core-'));
        // A fresh data dir each time, so no verdict is reused from an earlier repetition.
        const core = await createCore(
          { dataDir, keychainService: `verdict-bench-${randomUUID()}`, localService: { engine: 'clamd', clamdSocket: clamd.socketPath } },
          { watch: false, logLevel: 'warn' },
        );
        try {
          const ownBefore = threadTimes();
          const clamdBefore = clamdPid === null ? null : threadTimes(clamdPid);
          const started = performance.now();
          const submitted = await core.submit([files.path], { origin: 'cli' });
          if (!submitted.ok) throw new Error(`submit failed: ${submitted.error.message}`);
          await core.idle();
          const ms = performance.now() - started;
          const ownAfter = threadTimes();
          const clamdAfter = clamdPid === null ? null : threadTimes(clamdPid);
          if (ownBefore && ownAfter) {
            const cpu = cpuBetween(ownBefore, ownAfter);
            if (clamdBefore && clamdAfter) cpu.set('clamd', [...cpuBetween(clamdBefore, clamdAfter).values()].reduce((a, b) => a + b, 0));
            const line = describePerItem(cpu, count);
            cpuNotes.push(line);
            context.log(`throughput rep ${rep + 1}/${context.reps}: CPU ms per file by thread: ${line}`);
          }
          const safe = await core.scans.list({ verdicts: ['safe'], limit: 1 });
          if (!safe.ok || safe.value.total !== count) throw new Error(`expected ${count} clean scans, got ${safe.ok ? safe.value.total : safe.error.message}`);
          context.log(`throughput rep ${rep + 1}/${context.reps}: pipeline ${ms.toFixed(0)} ms (${((count / ms) * 1000).toFixed(0)} files/s)`);
          return (count / ms) * 1000;
        } finally {
          await core.close();
          await rm(dataDir, { recursive: true, force: true });
        }
      };
      const peer = async (rep: number) => {
        const clamdBefore = clamdPid === null ? null : threadTimes(clamdPid);
        const started = performance.now();
        await clamdscanFileList(clamdscanConfig, fileList);
        const ms = performance.now() - started;
        const clamdAfter = clamdPid === null ? null : threadTimes(clamdPid);
        if (clamdBefore && clamdAfter) {
          const clamdMs = [...cpuBetween(clamdBefore, clamdAfter).values()].reduce((a, b) => a + b, 0);
          peerClamdNotes.push(`clamd ${(clamdMs / count).toFixed(2)}`);
        }
        context.log(`throughput rep ${rep + 1}/${context.reps}: clamdscan ${ms.toFixed(0)} ms (${((count / ms) * 1000).toFixed(0)} files/s)${peerClamdNotes.length > 0 ? `, ${peerClamdNotes.at(-1)} CPU ms per file` : ''}`);
        return (count / ms) * 1000;
      };
      const runs = await alternate(context.reps, ours, peer);
      return [
        fromSamples(
          {
            name: `${count.toLocaleString('en-US')} files, scan to terminal`,
            unit: 'files/s',
            peerLabel: 'clamdscan --stream',
            target: { on: 'ratio', op: '>=', value: 1.0, text: 'ratio ≥ 1.0' },
            note:
              `createCore with the embedded service (clamd engine), origin cli (auto mode: sync for small files), ` +
              `${DEFAULT_CONCURRENCY} files in flight, the service scanning ${Math.min(4, availableParallelism())} at a time; clamdscan: one process, --file-list, start-up included` +
              (cpuNotes.length > 0 ? `; CPU ms per file by thread, last repetition: ${cpuNotes.at(-1)}` : '') +
              (peerClamdNotes.length > 0 ? ` (during clamdscan: ${peerClamdNotes.at(-1)})` : ''),
          },
          runs.ours,
          runs.peer,
        ),
      ];
    } finally {
      await files.remove();
      await clamd.stop();
    }
  },
};

// Case 5: throughput of the whole pipeline: 1,000 files of 4–64 KB handed to
// createCore (history, fingerprint, the embedded local service, the clamd
// engine on a real clamd), from submit() until every file is terminal, against
// `clamdscan --stream` over the same files and the same clamd. Files per second.
// Also against `clamdscan --multiscan --fdpass` (parallel, no streaming), with no target, and the
// next 1,000 files (other contents) through the same core: the app as it runs, its threads warm.
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { DEFAULT_CONCURRENCY } from '../../../electron/scans/pipeline.ts';
import { startClamd } from '../../support/clamd.ts';
import { fixtureDir } from '../../fixtures/engine-files.ts';
import { writeSmallFiles } from '../clamd-engine.ts';
import { describeDatabase, QUICK_DATABASE, REALISTIC_DATABASE, writeRealisticDatabase } from '../realistic-db.ts';
import type { BenchCase } from './bench-case.ts';
import { againstClamdscan, clamdscanMultiscan, clamdscanStream, measurePeer, scanWithCore, type CpuNotes } from './support/pipeline-run.ts';
import { alternate, fromSamples } from './support/statistics.ts';

/** The case on the tests' small database, or (`realistic`) on one of a real database's size (issue 26). */
export const throughputCaseOn = (database: 'small' | 'realistic'): BenchCase => ({
  id: database === 'small' ? 'throughput' : 'throughput-realistic-db',
  title:
    'throughput: 1,000 files of 4–64 KB, whole pipeline, clamd engine' + (database === 'small' ? '' : `, ${describeDatabase(REALISTIC_DATABASE)}`),
  needs: ['clamd', 'clamdscan'],
  reps: { full: 3, quick: database === 'small' ? 2 : 1 },
  async run(context) {
    const count = context.quick ? 60 : 1000;
    const size = context.quick ? QUICK_DATABASE : REALISTIC_DATABASE;
    const clamd = await startClamd(database === 'small' ? {} : { moreDatabases: (dir) => writeRealisticDatabase(dir, size), startTimeoutMs: 120_000 });
    if (!clamd) throw new Error('clamd did not start');
    const files = await fixtureDir('verdict-bench-throughput-');
    const next = await fixtureDir('verdict-bench-throughput-next-');
    try {
      const { paths } = await writeSmallFiles(files, count);
      await writeSmallFiles(next, count, 1_000_000);
      const fileList = path.join(context.tmp, 'files.txt');
      await writeFile(fileList, `${paths.join('\n')}\n`);
      const clamdscanConfig = path.join(context.tmp, 'clamdscan.conf');
      await writeFile(clamdscanConfig, `LocalSocket ${clamd.socketPath}\n`);
      // clamd's first scans are slower, and both sides should read from the page cache.
      await clamdscanStream(clamdscanConfig, fileList);
      const notes: CpuNotes = { ours: '', stream: '', multiscan: '' };
      const perSecond = (ms: number) => (count / ms) * 1000;
      const warm: number[] = [];
      let warmCpu = '';

      const ours = async (rep: number) => {
        const { ms, cpu, then } = await scanWithCore(clamd, files.path, count, context.tmp, next.path);
        if (cpu) notes.ours = cpu;
        if (then) {
          warm.push(perSecond(then.ms));
          warmCpu = then.cpu ?? '';
        }
        context.log(
          `throughput rep ${rep + 1}/${context.reps}: pipeline ${ms.toFixed(0)} ms (${perSecond(ms).toFixed(0)} files/s); CPU ms per file by thread: ${cpu ?? '?'}; ` +
            `the next ${count} files: ${then ? `${then.ms.toFixed(0)} ms (${perSecond(then.ms).toFixed(0)} files/s); ${then.cpu ?? '?'}` : '?'}`,
        );
        return perSecond(ms);
      };
      const peers = async (rep: number) => {
        const stream = await measurePeer(clamd, count, () => clamdscanStream(clamdscanConfig, fileList));
        const multiscan = await measurePeer(clamd, count, () => clamdscanMultiscan(clamdscanConfig, files.path));
        if (stream.cpu) notes.stream = stream.cpu;
        if (multiscan.cpu) notes.multiscan = multiscan.cpu;
        context.log(
          `throughput rep ${rep + 1}/${context.reps}: clamdscan --stream ${stream.ms.toFixed(0)} ms (${perSecond(stream.ms).toFixed(0)} files/s, ${stream.cpu ?? '?'}), ` +
            `--multiscan --fdpass ${multiscan.ms.toFixed(0)} ms (${perSecond(multiscan.ms).toFixed(0)} files/s, ${multiscan.cpu ?? '?'})`,
        );
        return { stream: perSecond(stream.ms), multiscan: perSecond(multiscan.ms) };
      };
      const runs = await alternate(context.reps, ours, peers);
      const name = `${count.toLocaleString('en-US')} files, scan to terminal`;
      const rows = againstClamdscan(
        {
          name,
          unit: 'files/s',
          target: { on: 'ratio', op: '>=', value: 1.0, text: 'ratio ≥ 1.0' },
          note:
            (database === 'small' ? '' : `clamd loads ${describeDatabase(size)}; `) +
            `createCore with the embedded service (clamd engine), origin cli (auto mode: sync for small files), ` +
            `${DEFAULT_CONCURRENCY} files in flight, the service scanning ${Math.min(4, availableParallelism())} at a time; clamdscan: one process, --file-list, start-up included`,
          multiscanNote: `the same run; clamdscan given the folder, clamd scanning with its own threads${notes.multiscan ? ` (${notes.multiscan} CPU ms per file)` : ''}`,
        },
        notes,
        runs,
      );
      const warmRow = fromSamples(
        {
          name: `the next ${name} (same core, threads warm)`,
          unit: 'files/s',
          peerLabel: 'clamdscan --stream',
          note: `another ${count.toLocaleString('en-US')} files right after, through the same core${warmCpu ? `; CPU ms per file by thread, last repetition: ${warmCpu}` : ''}`,
        },
        warm,
        runs.peer.map((peer) => peer.stream),
      );
      return [...rows, warmRow];
    } finally {
      await next.remove();
      await files.remove();
      await clamd.stop();
    }
  },
});

export const throughputCase = throughputCaseOn('small');

// Case 11: large files through the whole pipeline: 20 files of 4 MB and 4 of
// 40 MB handed to createCore (fingerprint, upload to the embedded service, the
// clamd engine on a real clamd) until every file is terminal, against
// `clamdscan --stream` over the same files and the same clamd. Bytes per second (MiB/s).
// Also against `clamdscan --multiscan --fdpass`, with no target.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startClamd } from '../../support/clamd.ts';
import { fixtureDir, noise } from '../../fixtures/engine-files.ts';
import { describeDatabase, QUICK_DATABASE, REALISTIC_DATABASE, writeRealisticDatabase } from '../realistic-db.ts';
import type { BenchCase } from './bench-case.ts';
import { againstClamdscan, clamdscanMultiscan, clamdscanStream, measurePeer, scanWithCore, type CpuNotes } from './support/pipeline-run.ts';
import { alternate } from './support/statistics.ts';

const MiB = 1024 * 1024;

/** The sizes of the case's files: 20 × 4 MiB and 4 × 40 MiB (quick: 3 × 1 MiB and 1 × 4 MiB). */
export function largeFileSizes(quick: boolean): number[] {
  const [small, smallCount, large, largeCount] = quick ? [1, 3, 4, 1] : [4, 20, 40, 4];
  return [...Array<number>(smallCount).fill(small * MiB), ...Array<number>(largeCount).fill(large * MiB)];
}

/** The case on the tests' small database, or (`realistic`) on one of a real database's size (issue 26). */
export const largeFilesCaseOn = (database: 'small' | 'realistic'): BenchCase => ({
  id: database === 'small' ? 'large-files' : 'large-files-realistic-db',
  title: 'large files: 20 × 4 MB and 4 × 40 MB, whole pipeline, clamd engine' + (database === 'small' ? '' : `, ${describeDatabase(REALISTIC_DATABASE)}`),
  needs: ['clamd', 'clamdscan'],
  reps: { full: 3, quick: database === 'small' ? 2 : 1 },
  async run(context) {
    const sizes = largeFileSizes(context.quick);
    const totalBytes = sizes.reduce((a, b) => a + b, 0);
    const size = context.quick ? QUICK_DATABASE : REALISTIC_DATABASE;
    const clamd = await startClamd(database === 'small' ? {} : { moreDatabases: (dir) => writeRealisticDatabase(dir, size), startTimeoutMs: 120_000 });
    if (!clamd) throw new Error('clamd did not start');
    const files = await fixtureDir('verdict-bench-large-');
    try {
      const paths: string[] = [];
      for (const [i, size] of sizes.entries()) paths.push(await files.write(`large-${String(i).padStart(2, '0')}.bin`, noise(size, i + 101)));
      const fileList = path.join(context.tmp, 'files.txt');
      await writeFile(fileList, `${paths.join('\n')}\n`);
      const clamdscanConfig = path.join(context.tmp, 'clamdscan.conf');
      await writeFile(clamdscanConfig, `LocalSocket ${clamd.socketPath}\n`);
      // Warm-up: clamd's first scans, and the page cache for both sides.
      await clamdscanStream(clamdscanConfig, fileList);
      const notes: CpuNotes = { ours: '', stream: '', multiscan: '' };
      // Bytes per second, in MiB/s.
      const bytesPerSecond = (ms: number) => (totalBytes / MiB / ms) * 1000;
      const mibps = (ms: number) => `${bytesPerSecond(ms).toFixed(0)} MiB/s`;

      const ours = async (rep: number) => {
        const { ms, cpu } = await scanWithCore(clamd, files.path, sizes.length, context.tmp);
        if (cpu) notes.ours = cpu;
        context.log(`large files rep ${rep + 1}/${context.reps}: pipeline ${ms.toFixed(0)} ms (${mibps(ms)}); CPU ms per file by thread: ${cpu ?? '?'}`);
        return bytesPerSecond(ms);
      };
      const peers = async (rep: number) => {
        const stream = await measurePeer(clamd, sizes.length, () => clamdscanStream(clamdscanConfig, fileList));
        const multiscan = await measurePeer(clamd, sizes.length, () => clamdscanMultiscan(clamdscanConfig, files.path));
        if (stream.cpu) notes.stream = stream.cpu;
        if (multiscan.cpu) notes.multiscan = multiscan.cpu;
        context.log(`large files rep ${rep + 1}/${context.reps}: clamdscan --stream ${stream.ms.toFixed(0)} ms (${mibps(stream.ms)}), --multiscan --fdpass ${multiscan.ms.toFixed(0)} ms (${mibps(multiscan.ms)})`);
        return { stream: bytesPerSecond(stream.ms), multiscan: bytesPerSecond(multiscan.ms) };
      };
      const runs = await alternate(context.reps, ours, peers);
      const name = `${sizes.length} files, ${(totalBytes / MiB).toFixed(0)} MiB, scan to terminal`;
      return againstClamdscan(
        {
          name,
          unit: 'MiB/s',
          target: { on: 'ratio', op: '>=', value: 0.9, text: 'ratio ≥ 0.9' },
          note:
            (database === 'small' ? '' : `clamd loads ${describeDatabase(size)}; `) +
            'createCore with the embedded service (clamd engine), origin cli; clamdscan: one process, --file-list, start-up included',
          multiscanNote: `the same run; clamdscan given the folder${notes.multiscan ? ` (${notes.multiscan} CPU ms per file)` : ''}`,
        },
        notes,
        runs,
      );
    } finally {
      await files.remove();
      await clamd.stop();
    }
  },
});

export const largeFilesCase = largeFilesCaseOn('small');

// Issue 26's home-folder case: a real tree of about 20,000 files copied from this machine's
// /usr/share and /usr/lib, scanned by Verdict's CLI (`verdict scan FOLDER --clamd unix:…`, a
// fresh data dir: a custom job, as a user runs it) against `clamdscan --multiscan --fdpass` on
// the same clamd; then the same tree scanned again, unchanged, by both (Verdict skips what has
// not changed; clamd's own cache still reads and hashes every file). clamd is restarted before
// each first scan, so neither side meets the other's clamd cache.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import type { BenchCase } from './bench-case.ts';
import { alternate, fromSamples } from './support/statistics.ts';
import { copySystemTree } from './support/system-tree.ts';
import { timedCommand, type TimedRun } from './support/timed-command.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(REPO, 'bin/verdict.mjs');

/** The statuses of the CLI's --json lines, counted: every file must be reported once. */
function statuses(run: TimedRun): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const status = String((JSON.parse(line) as { status?: unknown }).status);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return counts;
}

const perFile = (ms: number, files: number) => (ms / files).toFixed(3);

export const homeTreeCase: BenchCase = {
  id: 'home-tree',
  title: 'a home folder: ~20,000 real files (/usr/share, /usr/lib), first scan and unchanged rescan, Verdict CLI',
  needs: ['clamd', 'clamdscan'],
  reps: { full: 3, quick: 1 },
  async run(context) {
    const wanted = context.quick ? 300 : 20_000;
    const clamd: RunningClamd | null = await startClamd();
    if (!clamd) throw new Error('clamd did not start');
    const tree = path.join(context.tmp, 'home');
    try {
      const copied = await copySystemTree(tree, wanted);
      // Verdict makes no unchanged-file entry within a few seconds of a file's ctime (racy timestamps).
      await sleep(4_000);
      const clamdscanConfig = path.join(context.tmp, 'clamdscan.conf');
      await writeFile(clamdscanConfig, `LocalSocket ${clamd.socketPath}\n`);
      const files = copied.files;
      const perSecond = (ms: number) => (files / ms) * 1000;
      const notes = { ours: '', peer: '' };

      const ours = async (rep: number) => {
        await clamd.restart();
        const dataDir = await mkdtemp(path.join(context.tmp, 'data-'));
        const args = [CLI, 'scan', '--json', '--data-dir', dataDir, '--clamd', `unix:${clamd.socketPath}`, tree];
        try {
          const first = await timedCommand(clamd, process.execPath, args, path.join(context.tmp, 'first.out'));
          const again = await timedCommand(clamd, process.execPath, args, path.join(context.tmp, 'again.out'));
          for (const run of [first, again]) {
            const reported = [...statuses(run).values()].reduce((a, b) => a + b, 0);
            if (reported !== files) throw new Error(`the CLI reported ${reported} of ${files} files (exit ${run.code})`);
          }
          notes.ours =
            `first scan: Verdict ${perFile(first.cpuMs, files)} + clamd ${perFile(first.clamdCpuMs ?? Number.NaN, files)} CPU ms per file, ` +
            `statuses ${JSON.stringify(Object.fromEntries(statuses(first)))}, exit ${first.code}; ` +
            `again: Verdict ${perFile(again.cpuMs, files)} + clamd ${perFile(again.clamdCpuMs ?? Number.NaN, files)}`;
          context.log(`home tree rep ${rep + 1}/${context.reps}: Verdict first ${first.ms.toFixed(0)} ms, again ${again.ms.toFixed(0)} ms; ${notes.ours}`);
          return { first: perSecond(first.ms), again: perSecond(again.ms) };
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      };
      const peer = async (rep: number) => {
        await clamd.restart();
        const args = ['--multiscan', '--fdpass', '--no-summary', '--quiet', `--config-file=${clamdscanConfig}`, tree];
        const first = await timedCommand(clamd, 'clamdscan', args, path.join(context.tmp, 'peer.out'));
        const again = await timedCommand(clamd, 'clamdscan', args, path.join(context.tmp, 'peer.out'));
        notes.peer = `clamdscan first: clamd ${perFile(first.clamdCpuMs ?? Number.NaN, files)} CPU ms per file (exit ${first.code}); again: ${perFile(again.clamdCpuMs ?? Number.NaN, files)}`;
        context.log(`home tree rep ${rep + 1}/${context.reps}: clamdscan first ${first.ms.toFixed(0)} ms, again ${again.ms.toFixed(0)} ms; ${notes.peer}`);
        return { first: perSecond(first.ms), again: perSecond(again.ms) };
      };
      const runs = await alternate(context.reps, ours, peer);
      const size = `${files.toLocaleString('en-US')} files, ${(copied.bytes / 1024 / 1024).toFixed(0)} MiB`;
      return [
        fromSamples(
          {
            name: `${size}, first scan`,
            unit: 'files/s',
            peerLabel: 'clamdscan --multiscan --fdpass',
            target: { on: 'ratio', op: '>=', value: 1.0, text: 'ratio ≥ 1.0' },
            note: `verdict scan --json (a custom job, fresh data dir) and clamdscan, each after a clamd restart; ${notes.ours}; ${notes.peer}`,
          },
          runs.ours.map((run) => run.first),
          runs.peer.map((run) => run.first),
        ),
        fromSamples(
          {
            name: `${size}, scanned again unchanged`,
            unit: 'files/s',
            peerLabel: 'clamdscan --multiscan --fdpass',
            target: { on: 'ratio', op: '>=', value: 10, text: 'ratio ≥ 10' },
            note: 'the same command again right after (Verdict: the same data dir; clamd: its cache warm)',
          },
          runs.ours.map((run) => run.again),
          runs.peer.map((run) => run.again),
        ),
      ];
    } finally {
      await rm(tree, { recursive: true, force: true });
      await clamd.stop();
    }
  },
};

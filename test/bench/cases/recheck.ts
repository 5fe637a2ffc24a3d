// Issue 27's measurement: the recheck after a signature update on the local engine path. N recent
// files of 1 KiB are judged clean by Verdict's own clamd under database A; a database that knows
// one of them is loaded with RELOAD, and the recheck job judges all N again. Measured: files/s
// against `clamdscan --multiscan --fdpass` over the same files on the same clamd, the CPU per file
// of Verdict's process and of clamd, the self-test's time, and, during a second recheck (another
// database), case 10's page: its longest task and the core's event-loop delay.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ownClamdFiles } from '../../../electron/engine/own-clamd/clamd-config.ts';
import { reloadAndMark } from '../../../electron/engine/own-clamd/reload-and-mark.ts';
import { parseClamdConf } from '../../../electron/engine/conf/system-clamd-conf.ts';
import { buildRenderer, launchChromium } from '../../e2e/support/app-harness.ts';
import { startRealCore, type RealCore } from '../../e2e/support/real-core.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { ownClamdDetects } from '../../support/own-clamd-probe.ts';
import type { BenchCase } from './bench-case.ts';
import { fromSamples } from './support/statistics.ts';
import { measurePhase, openAppPage } from './window-during-job.ts';

async function until(what: string, test: () => boolean | Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A process's CPU time so far (ms), from /proc (utime + stime in 100 Hz ticks). */
function cpuMsOf(pid: string): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Loads a database that knows `file` into Verdict's own clamd, and waits until clamd and the core use it. */
async function loadSignaturesFor(real: RealCore, name: string, file: string): Promise<void> {
  const view = async () => {
    const result = await real.core.protection.status();
    return result.ok ? result.value : null;
  };
  const { configPath } = ownClamdFiles(real.dataDir);
  await writeFile(path.join(real.dataDir, 'clamav-db', `${name}.hdb`), `${execFileSync('sigtool', ['--md5', file], { encoding: 'utf8' }).trim()}\n`);
  const before = (await view())?.status?.engine.databases;
  await reloadAndMark(real.dataDir, { socketPath: parseClamdConf(readFileSync(configPath, 'utf8')).get('localsocket')! });
  await real.core.protection.refresh();
  await until('the new signatures', async () => (await view())?.status?.engine.databases !== before);
  await until('clamd to finish loading', () => ownClamdDetects(real.dataDir, file));
}

/** Starts the recheck; resolves with the finished job's counts. */
async function recheckOnce(real: RealCore) {
  const started = await real.core.recheck.start('cli');
  if (started.job === null) throw new Error(`no recheck: ${started.why}`);
  const job = await real.core.jobs.finished(started.job.id);
  await real.core.threatsSettled();
  return job?.counts ?? null;
}

export const recheckCase: BenchCase = {
  id: 'recheck',
  title: 'recheck after a signature update: 10,000 recent files, Verdict\'s own clamd',
  needs: ['clamd', 'clamdscan', 'chromium'],
  reps: { full: 1, quick: 1 },
  async run(context) {
    const count = context.quick ? 300 : 10_000;
    const folder = path.join(context.tmp, 'files');
    await mkdir(folder);
    const paths = Array.from({ length: count }, (_, i) => path.join(folder, `file-${i}.bin`));
    for (const file of paths) await writeFile(file, randomBytes(1024));
    let real: RealCore | undefined;
    let browser: Browser | undefined;
    let built: Awaited<ReturnType<typeof buildRenderer>> | undefined;
    try {
      real = await startRealCore({
        clamd: null,
        localService: { engine: 'auto' },
        tuning: { watch: false, schedules: false, engine: { autoUpdate: false }, recheck: { automatic: false } },
        prepare: async (dataDir) => void (await writeEicarDatabase(path.join(dataDir, 'clamav-db'))),
      });
      const core = real.core;
      const status = async () => {
        const result = await core.protection.status();
        return result.ok ? result.value.status : undefined;
      };
      await until("Verdict's own clamd", async () => (await status())?.engine.databases !== undefined);
      await until('the self-test', async () => (await status())?.selfTest !== undefined);
      const selfTest = (await status())?.selfTest;
      const submitted = await core.submit(paths, { origin: 'drop' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      await core.idle();
      await core.recheck.idle();
      context.log(`recheck: ${count} files judged clean under database A`);

      await loadSignaturesFor(real, 'database-b', paths[0]!);
      const clamdPid = readFileSync(path.join(real.dataDir, 'clamd.pid'), 'utf8').trim();
      const cpu0 = process.cpuUsage();
      const clamd0 = cpuMsOf(clamdPid);
      const t0 = performance.now();
      const counts = await recheckOnce(real);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const clamdMs = cpuMsOf(clamdPid) - clamd0;
      if (counts?.scanned !== count || counts.threats !== 1) throw new Error(`the recheck judged ${counts?.scanned} of ${count} files, ${counts?.threats} threats (1 expected)`);

      const peerStart = performance.now();
      const peerCode = await new Promise<number | null>((resolve) => {
        const args = ['--multiscan', '--fdpass', '--no-summary', '--quiet', `--config-file=${ownClamdFiles(real!.dataDir).configPath}`, folder];
        execFile('clamdscan', args, (error) => resolve(error ? ((error as { code?: number }).code ?? null) : 0));
      });
      const peerMs = performance.now() - peerStart;
      if (peerCode !== 1) throw new Error(`clamdscan ended with ${peerCode} (1: the one file found)`);

      [built, browser] = await Promise.all([buildRenderer(), launchChromium()]);
      await loadSignaturesFor(real, 'database-c', paths[1]!);
      const { page, close } = await openAppPage(browser, built.dir, core);
      const idle = await measurePhase(browser, page, new Promise((resolve) => setTimeout(resolve, 3_000)));
      const during = await measurePhase(browser, page, recheckOnce(real)).finally(close);
      const perFile = (total: number) => total / count;
      context.log(
        `recheck: ${count} files in ${ms.toFixed(0)} ms (clamdscan ${peerMs.toFixed(0)} ms); Verdict ${perFile((cpu.user + cpu.system) / 1000).toFixed(3)} + clamd ${perFile(clamdMs).toFixed(3)} CPU ms per file; ` +
          `self-test ${selfTest?.durationMs ?? '?'} ms; with the window: longest task ${during.longestTaskMs.toFixed(0)} ms (${during.longestTaskCpuMs.toFixed(0)} ms CPU), core loop max ${during.loopMaxMs.toFixed(1)} ms`,
      );
      const files = count.toLocaleString('en-US');
      return [
        fromSamples({ name: `${files} files rechecked`, unit: 'files/s', peerLabel: 'clamdscan --multiscan --fdpass', note: `the recheck job (every file judged again, the one the new database knows found) and clamdscan over the same folder on the same clamd` }, [(count / ms) * 1000], [(count / peerMs) * 1000]),
        fromSamples({ name: "Verdict's CPU per file", unit: 'ms', note: `the whole process (core and engine threads); clamd: ${perFile(clamdMs).toFixed(3)} ms per file` }, [perFile((cpu.user + cpu.system) / 1000)]),
        fromSamples({ name: 'self-test (EICAR through the engine in use)', unit: 'ms', note: `wall time of the start's self-test (${selfTest?.result ?? 'none'})` }, [selfTest?.durationMs ?? Number.NaN]),
        fromSamples({ name: 'longest page task during a recheck', unit: 'ms', peerLabel: 'idle', noRatio: true, target: { on: 'ours', op: '<=', value: 50, text: 'no task over 50 ms' }, note: `case 10's page scrolling while a second recheck (another database) runs; its CPU: ${during.longestTaskCpuMs.toFixed(0)} ms` }, [during.longestTaskMs], [idle.longestTaskMs]),
        fromSamples({ name: 'core event-loop delay, max, during a recheck', unit: 'ms', peerLabel: 'idle', noRatio: true, target: { on: 'ours', op: '<=', value: 50, text: '≤ 50 ms' } }, [during.loopMaxMs], [idle.loopMaxMs]),
      ];
    } finally {
      await real?.close();
      await browser?.close();
      await built?.remove();
    }
  },
};

// The recheck after a signature update, measured on the local engine path (issue 27 §1):
// `node test/bench/recheck.ts [--files N]` (default 10,000). N recent files of 1 KiB are judged
// clean by Verdict's own clamd under database A; database B (knows one of them) is loaded with
// RELOAD; then the recheck job judges all N again. Prints the files per second, the CPU per file of
// Verdict's process (core, pipeline and the engine thread) and of clamd, and the self-test's time.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../../electron/core/create-core.ts';
import { clamdReload } from '../../electron/engine/own-clamd/clamd-commands.ts';
import { ownClamdFiles } from '../../electron/engine/own-clamd/clamd-config.ts';
import { markDatabasesLoading } from '../../electron/engine/own-clamd/databases-loaded.ts';
import { parseClamdConf } from '../../electron/engine/conf/system-clamd-conf.ts';
import { writeEicarDatabase } from '../support/clamav-db.ts';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' } } });
const count = Number(values.files);
const dir = await mkdtemp(path.join(os.tmpdir(), 'verdict-bench-recheck-'));
const dataDir = path.join(dir, 'data');
const dbDir = path.join(dataDir, 'clamav-db');
const wait = async (what: string, test: () => boolean | Promise<boolean>, ms = 120_000) => {
  const until = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
/** clamd's CPU time so far (ms), from /proc. */
const clamdCpuMs = () => {
  const pid = readFileSync(path.join(dataDir, 'clamd.pid'), 'utf8').trim();
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks (100 Hz)
};

try {
  await writeEicarDatabase(dbDir);
  const files = path.join(dir, 'files');
  await mkdir(files);
  const paths = Array.from({ length: count }, (_, i) => path.join(files, `file-${i}.bin`));
  for (const file of paths) await writeFile(file, randomBytes(1024));
  const core = await createCore(
    { dataDir, keychainService: `verdict-bench-${process.pid}`, localService: { engine: 'auto' } },
    { watch: false, schedules: false, logLevel: 'warn', engine: { autoUpdate: false }, recheck: { automatic: false } },
  );
  try {
    const view = async () => {
      const result = await core.protection.status();
      return result.ok ? result.value : null;
    };
    await wait("Verdict's own clamd", async () => (await view())?.status?.engine.databases !== undefined);
    await wait('the self-test', async () => (await view())?.status?.selfTest !== undefined);
    const selfTest = (await view())?.status?.selfTest;
    const submitted = await core.submit(paths, { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await core.idle();
    await core.recheck.idle();
    process.stderr.write(`${count} files judged clean under database A\n`);

    await writeFile(path.join(dbDir, 'database-b.hdb'), `${execFileSync('sigtool', ['--md5', paths[0]!], { encoding: 'utf8' }).trim()}\n`);
    const before = (await view())?.status?.engine.databases;
    const socketPath = parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8')).get('localsocket')!;
    markDatabasesLoading(dataDir);
    await clamdReload({ socketPath });
    await core.protection.refresh();
    await wait('the new signatures', async () => (await view())?.status?.engine.databases !== before);
    await wait('clamd to finish loading', async () => {
      try {
        execFileSync('clamdscan', ['--no-summary', '--stream', `--config-file=${ownClamdFiles(dataDir).configPath}`, paths[0]!], { stdio: 'ignore' });
        return false;
      } catch (error) {
        return (error as { status?: number }).status === 1;
      }
    });

    const cpu0 = process.cpuUsage();
    const clamd0 = clamdCpuMs();
    const t0 = performance.now();
    const started = await core.recheck.start('cli');
    if (started.job === null) throw new Error(`no recheck: ${started.why}`);
    const job = await core.jobs.finished(started.job.id);
    await core.threatsSettled();
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const clamdMs = clamdCpuMs() - clamd0;
    const rechecked = job?.counts.scanned ?? 0;
    console.log(
      JSON.stringify(
        {
          files: count,
          rechecked,
          threats: job?.counts.threats,
          wallSeconds: Number((wallMs / 1000).toFixed(2)),
          filesPerSecond: Math.round(rechecked / (wallMs / 1000)),
          verdictCpuMsPerFile: Number(((cpu.user + cpu.system) / 1000 / rechecked).toFixed(3)),
          clamdCpuMsPerFile: Number((clamdMs / rechecked).toFixed(3)),
          selfTest: selfTest ? { result: selfTest.result, durationMs: selfTest.durationMs } : null,
          cores: os.cpus().length,
        },
        null,
        2,
      ),
    );
  } finally {
    await core.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

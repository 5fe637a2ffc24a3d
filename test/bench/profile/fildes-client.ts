// The clamd session client (electron/engine/clamd) on its own, against clamdscan, on one
// clamd: the same N small files (default 1,000 of 4–64 KB, distinct) through the client by
// FILDES and by INSTREAM, and by `clamdscan --multiscan --fdpass` (the folder) and
// `clamdscan --stream` (a file list). clamd is restarted before each run, so no client
// profits from its cache of clean files; the order of the four rotates with each repetition.
// Reported: files/s (median), ratios, and CPU ms per file: this process's (process.cpuUsage:
// opening each file, the client, closing it), clamdscan's, and clamd's.
// A measurement, not a test. Run: node test/bench/profile/fildes-client.ts [N] [--reps R] [--in-flight K[,K2...]]
// (several K: the client's two rows for each, side by side in the same run).
import { execFile } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { openClamdClient } from '../../../electron/engine/clamd/clamd-client.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { noise } from '../../fixtures/engine-files.ts';
import { cpuBetween, pidWithArgument, threadTimes } from '../cases/support/thread-cpu.ts';
import { smallFileSize } from '../clamd-engine.ts';

const run = promisify(execFile);
const { values, positionals } = parseArgs({ allowPositionals: true, options: { reps: { type: 'string' }, 'in-flight': { type: 'string' } } });
const count = Number(positionals[0] ?? 1000);
const reps = Number(values.reps ?? 3);
const inFlights: Array<number | undefined> = values['in-flight'] === undefined ? [undefined] : values['in-flight'].split(',').map(Number);

interface Run {
  ms: number;
  /** CPU ms per file of the client side: this process, or clamdscan. */
  clientCpu: number;
  clamdCpu: number | null;
}

/** Our client (by how files go, with how many in flight) or clamdscan. */
type Side = { client: 'fildes' | 'instream'; inFlight: number | undefined } | { clamdscan: 'multiscan --fdpass' | 'stream' };
const SIDES: Side[] = [
  ...inFlights.flatMap((inFlight) => [{ client: 'fildes' as const, inFlight }, { client: 'instream' as const, inFlight }]),
  { clamdscan: 'multiscan --fdpass' },
  { clamdscan: 'stream' },
];
const label = (side: Side): string =>
  'client' in side ? `Verdict client, ${side.client === 'fildes' ? 'FILDES' : 'INSTREAM'}${side.inFlight === undefined ? '' : `, ${side.inFlight} in flight`}` : `clamdscan --${side.clamdscan}`;

/** Our client over every file, a window of twice its in-flight commands open at a time. */
async function viaClient(clamd: RunningClamd, paths: string[], fdPassing: 'auto' | 'off', inFlight: number | undefined): Promise<number> {
  const client = openClamdClient({ address: { kind: 'unix', path: clamd.socketPath }, fdPassing, inFlight });
  const before = process.cpuUsage();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const fd = openSync(paths[next++]!, 'r');
      try {
        const verdict = await client.scan(fd);
        if (verdict.kind !== 'clean') throw new Error(`expected clean, got ${JSON.stringify(verdict)}`);
      } finally {
        closeSync(fd);
      }
    }
  };
  await Promise.all(Array.from({ length: client.inFlight * 2 }, worker));
  const used = process.cpuUsage(before);
  await client.close();
  return (used.user + used.system) / 1000 / paths.length;
}

/** clamdscan's own CPU (user + system of the children a shell waited for, in clock ticks). */
async function viaClamdscan(args: string[], files: number): Promise<number> {
  const script = 'clamdscan "$@" >/dev/null; status=$?; cat /proc/$$/stat; exit $status';
  const { stdout } = await run('sh', ['-c', script, 'sh', ...args], { maxBuffer: 16 * 1024 * 1024 });
  const fields = stdout.slice(stdout.lastIndexOf(')') + 2).trim().split(' ');
  // After ")": state is field 3; cutime and cstime are fields 16 and 17.
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 10) / files;
}

async function measure(side: Side, clamd: RunningClamd, folder: string, paths: string[], config: string, fileList: string): Promise<Run> {
  await clamd.restart();
  const pid = pidWithArgument(clamd.configPath);
  const clamdBefore = pid === null ? null : threadTimes(pid);
  const started = performance.now();
  let clientCpu: number;
  if ('client' in side) clientCpu = await viaClient(clamd, paths, side.client === 'fildes' ? 'auto' : 'off', side.inFlight);
  else if (side.clamdscan === 'stream') clientCpu = await viaClamdscan(['--stream', '--no-summary', `--config-file=${config}`, `--file-list=${fileList}`], paths.length);
  else clientCpu = await viaClamdscan(['--multiscan', '--fdpass', '--no-summary', `--config-file=${config}`, folder], paths.length);
  const ms = performance.now() - started;
  const clamdAfter = pid === null ? null : threadTimes(pid);
  const clamdCpu = clamdBefore && clamdAfter ? [...cpuBetween(clamdBefore, clamdAfter).values()].reduce((a, b) => a + b, 0) / paths.length : null;
  return { ms, clientCpu, clamdCpu };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const clamd = await startClamd();
  if (clamd === null) throw new Error('clamd is not installed');
  const dir = await mkdtemp(path.join(tmpdir(), 'verdict-fildes-bench-'));
  try {
    const folder = path.join(dir, 'files');
    await run('mkdir', [folder]);
    const paths: string[] = [];
    for (let i = 0; i < count; i++) {
      paths.push(path.join(folder, `f${String(i).padStart(4, '0')}.bin`));
      await writeFile(paths[i]!, noise(smallFileSize(i), i + 1));
    }
    const config = path.join(dir, 'clamdscan.conf');
    await writeFile(config, `LocalSocket ${clamd.socketPath}\n`);
    const fileList = path.join(dir, 'files.txt');
    await writeFile(fileList, `${paths.join('\n')}\n`);
    const runs = new Map<Side, Run[]>(SIDES.map((side) => [side, []]));
    for (let rep = 0; rep < reps; rep++) {
      const order = SIDES.map((_, i) => SIDES[(i + rep) % SIDES.length]!);
      for (const side of order) {
        const measured = await measure(side, clamd, folder, paths, config, fileList);
        runs.get(side)!.push(measured);
        console.error(`rep ${rep + 1}/${reps} ${label(side)}: ${((count / measured.ms) * 1000).toFixed(0)} files/s`);
      }
    }
    report(runs);
  } finally {
    await clamd.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(runs: Map<Side, Run[]>): void {
  const rate = (side: Side) => median(runs.get(side)!.map((r) => (count / r.ms) * 1000));
  const cpu = (side: Side, key: 'clientCpu' | 'clamdCpu') => {
    const values = runs.get(side)!.map((r) => r[key]).filter((v): v is number => v !== null);
    return values.length ? median(values).toFixed(3) : '–';
  };
  const [multiscan, stream] = SIDES.slice(-2) as [Side, Side];
  console.log(`\n${count} files of 4–64 KB, ${reps} repetitions (medians), clamd restarted before each run\n`);
  console.log('| client | files/s | vs --multiscan --fdpass | vs --stream | client CPU ms/file | clamd CPU ms/file |');
  console.log('|---|---|---|---|---|---|');
  for (const side of SIDES) {
    console.log(`| ${label(side)} | ${rate(side).toFixed(0)} | ${(rate(side) / rate(multiscan)).toFixed(2)} | ${(rate(side) / rate(stream)).toFixed(2)} | ${cpu(side, 'clientCpu')} | ${cpu(side, 'clamdCpu')} |`);
  }
}

await main();

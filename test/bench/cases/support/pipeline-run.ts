// The two sides of the whole-pipeline cases (throughput, large files): a folder
// handed to createCore (embedded service, clamd engine) until every file is
// terminal, and clamdscan over the same files against the same clamd; each
// with the CPU it took, per thread (ours) and in clamd.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCore } from '../../../../electron/core/create-core.ts';
import type { RunningClamd } from '../../../support/clamd.ts';
import type { Metric, Target } from '../bench-case.ts';
import { fromSamples } from './statistics.ts';
import { cpuBetween, describePerItem, pidWithArgument, threadTimes, type ThreadTimes } from './thread-cpu.ts';

const run = promisify(execFile);

export interface Measured {
  ms: number;
  /** CPU ms per file by thread (ours, and clamd's), or null where /proc is missing. */
  cpu: string | null;
}

/** CPU of this process's threads and of clamd, between start() and the returned stop(). */
function cpuMeter(clamdPid: number | null, withOwn: boolean) {
  const ownBefore = withOwn ? threadTimes() : null;
  const clamdBefore = clamdPid === null ? null : threadTimes(clamdPid);
  return (files: number): string | null => {
    const ownAfter = withOwn ? threadTimes() : null;
    const clamdAfter = clamdPid === null ? null : threadTimes(clamdPid);
    const cpu = ownBefore && ownAfter ? cpuBetween(ownBefore, ownAfter) : new Map<string, number>();
    if (clamdBefore && clamdAfter) cpu.set('clamd', sum(cpuBetween(clamdBefore, clamdAfter)));
    return cpu.size > 0 ? describePerItem(cpu, files) : null;
  };
}

const sum = (cpu: Map<string, number>) => [...cpu.values()].reduce((a, b) => a + b, 0);

/** clamd's pid (found by its config path), for its CPU. */
export const clamdPidOf = (clamd: RunningClamd): number | null => pidWithArgument(clamd.configPath);

/**
 * The folder through createCore (a fresh data dir: no verdict is reused from an earlier repetition).
 * `then`: a second folder of as many files (other contents) through the same core right after, measured
 * on its own: the app as it runs, its threads' code compiled by then.
 */
export async function scanWithCore(clamd: RunningClamd, folder: string, files: number, tmp: string, then?: string): Promise<Measured & { then?: Measured }> {
  const dataDir = await mkdtemp(path.join(tmp, 'core-'));
  const core = await createCore(
    { dataDir, keychainService: `verdict-bench-${randomUUID()}`, localService: { engine: 'clamd', clamdSocket: clamd.socketPath } },
    { watch: false, logLevel: 'warn' },
  );
  try {
    const first = await scanFolder(core, clamd, folder, files);
    await expectClean(core, files);
    if (then === undefined) return first;
    const second = await scanFolder(core, clamd, then, files);
    await expectClean(core, 2 * files);
    return { ...first, then: second };
  } finally {
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function scanFolder(core: Awaited<ReturnType<typeof createCore>>, clamd: RunningClamd, folder: string, files: number): Promise<Measured> {
  const meter = cpuMeter(clamdPidOf(clamd), true);
  const started = performance.now();
  const submitted = await core.submit([folder], { origin: 'cli' });
  if (!submitted.ok) throw new Error(`submit failed: ${submitted.error.message}`);
  await core.idle();
  const ms = performance.now() - started;
  return { ms, cpu: meter(files) };
}

async function expectClean(core: Awaited<ReturnType<typeof createCore>>, files: number): Promise<void> {
  const safe = await core.scans.list({ verdicts: ['safe'], limit: 1 });
  if (!safe.ok || safe.value.total !== files) throw new Error(`expected ${files} clean scans, got ${safe.ok ? safe.value.total : safe.error.message}`);
}

/** `clamdscan --stream` over a file list: one process, one file after the other, the bytes sent over the socket. */
export const clamdscanStream = (configFile: string, fileList: string) =>
  run('clamdscan', ['--stream', '--no-summary', '--quiet', `--config-file=${configFile}`, `--file-list=${fileList}`], { maxBuffer: 16 * 1024 * 1024 });

/**
 * `clamdscan --multiscan --fdpass` on the folder: clamd's threads in parallel, each reading a file itself
 * (no streaming). Given the folder, not a file list: with a list it is 2–3 times slower (measured here).
 */
export const clamdscanMultiscan = (configFile: string, folder: string) =>
  run('clamdscan', ['--multiscan', '--fdpass', '--no-summary', '--quiet', `--config-file=${configFile}`, folder], { maxBuffer: 16 * 1024 * 1024 });

/** A peer's run, timed, with clamd's CPU per file. */
export async function measurePeer(clamd: RunningClamd, files: number, peer: () => Promise<unknown>): Promise<Measured> {
  const meter = cpuMeter(clamdPidOf(clamd), false);
  const started = performance.now();
  await peer();
  const ms = performance.now() - started;
  return { ms, cpu: meter(files) };
}

/** What the pipeline cases note of their last repetition: CPU per file by thread, ours and during each peer. */
export interface CpuNotes {
  ours: string;
  stream: string;
  multiscan: string;
}

/**
 * A pipeline case's two rows: ours against `clamdscan --stream` (with the target), and against
 * `clamdscan --multiscan --fdpass` (reported, no target), with the CPU notes of the last repetition.
 */
export function againstClamdscan(
  row: { name: string; unit: string; target: Target; note: string; multiscanNote: string },
  notes: CpuNotes,
  runs: { ours: number[]; peer: Array<{ stream: number; multiscan: number }> },
): Metric[] {
  const note =
    row.note + (notes.ours ? `; CPU ms per file by thread, last repetition: ${notes.ours}` : '') + (notes.stream ? ` (during clamdscan: ${notes.stream})` : '');
  return [
    fromSamples({ name: row.name, unit: row.unit, peerLabel: 'clamdscan --stream', target: row.target, note }, runs.ours, runs.peer.map((peer) => peer.stream)),
    fromSamples(
      { name: row.name, unit: row.unit, peerLabel: 'clamdscan --multiscan --fdpass', note: row.multiscanNote },
      runs.ours,
      runs.peer.map((peer) => peer.multiscan),
    ),
  ];
}

export type { ThreadTimes };

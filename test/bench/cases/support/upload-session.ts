// The measurements behind the three upload cases (wall time, client memory,
// service memory), taken once per run and shared: the local service runs in a
// child process (the `npm run service` CLI, built-in engine), and each
// repetition uploads the same file async with our client (a fresh child
// process, which measures its own time and memory) and with `curl -F`,
// alternately. The service's peak RSS growth is taken during both uploads.
// Each upload's background scan finishes before the next upload starts.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MB } from '../../../../shared/service-contract/limits.ts';
import type { BenchCase, BenchContext, Metric } from '../bench-case.ts';
import { execFileAsync, runNodeJson, spawnLineChild } from './child-process.ts';
import { startPeakProbe, type PeakProbe } from './memory.ts';
import { alternate, fromSamples } from './statistics.ts';

const KEY = 'bench-upload-key-0123456789';
const SERVICE_CLI = path.resolve(import.meta.dirname, '../../../../electron/local-service/cli.ts');
const UPLOAD_CHILD = path.join(import.meta.dirname, 'upload-child.ts');

export interface UploadMeasurements {
  fileMiB: number;
  clientMs: number[];
  curlMs: number[];
  clientGrowthMiB: number[];
  /** Per repetition, the larger of the two: during our client's upload and during curl's. */
  serviceGrowthMiB: number[];
  memoryMethod: { client: PeakProbe['method']; service: PeakProbe['method'] };
}

const sessions = new Map<string, Promise<UploadMeasurements>>();

/** The file size of the upload cases: 100 MB (the async limit), 8 MB in quick mode. */
export const uploadMiB = (quick: boolean): number => (quick ? 8 : 100);

export function measureUploads(context: BenchContext): Promise<UploadMeasurements> {
  const key = `${context.quick}:${context.reps}`;
  let session = sessions.get(key);
  if (!session) {
    session = runSession(context);
    sessions.set(key, session);
  }
  return session;
}

/** Cases 1–3: one row each, from the shared session. */
export function uploadSessionCase(head: Pick<BenchCase, 'id' | 'title'>, metric: (data: UploadMeasurements, quick: boolean) => Metric): BenchCase {
  return {
    ...head,
    needs: ['curl'],
    reps: { full: 7, quick: 2 },
    run: async (context) => [metric(await measureUploads(context), context.quick)],
  };
}

/** Cases 2 and 3: one process's peak RSS growth per upload, against the 32 MB target. */
export function peakGrowthMetric(quick: boolean, growthMiB: number[], method: PeakProbe['method'], notePrefix = ''): Metric {
  return fromSamples(
    {
      name: `peak RSS growth, ${uploadMiB(quick)} MiB upload`,
      unit: 'MiB',
      target: { on: 'ours', op: '<', value: 32, text: '< 32 MB' },
      note: `${notePrefix}max ${Math.max(...growthMiB).toFixed(1)} MiB; ${method === 'hwm' ? 'VmHWM reset before each upload' : 'VmRSS sampled every 5 ms'}`,
    },
    growthMiB,
  );
}

async function writeRandomFile(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < bytes; written += MB) await handle.write(randomBytes(Math.min(MB, bytes - written)));
  } finally {
    await handle.close();
  }
}

async function runSession(context: BenchContext): Promise<UploadMeasurements> {
  const dir = await mkdtemp(path.join(tmpdir(), 'verdict-bench-upload-'));
  const fileMiB = uploadMiB(context.quick);
  const file = path.join(dir, 'upload.bin');
  const warm = path.join(dir, 'warm.bin');
  await writeRandomFile(file, fileMiB * MB);
  await writeRandomFile(warm, 256 * 1024);
  const service = spawnLineChild(process.execPath, [SERVICE_CLI, '--port', '0', '--engine', 'builtin', '--api-key', KEY, '--data-dir', path.join(dir, 'service'), '--quiet']);
  try {
    const url = (await service.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    let uploads = 0;
    let lastServiceGrowth = 0;
    const serviceGrowth: number[][] = [];
    const methods = { client: 'hwm', service: 'hwm' } as UploadMeasurements['memoryMethod'];

    const ours = async () => {
      const probe = startPeakProbe(service.pid);
      const result = await runNodeJson<{ id: string; ms: number; growthMiB: number; memory: PeakProbe['method'] }>(UPLOAD_CHILD, [
        '--url', url, '--key', KEY, '--file', file, '--warm', warm, '--ref', `bench/upload/${process.pid}/${uploads++}`,
      ]);
      lastServiceGrowth = probe.stop();
      methods.service = probe.method;
      methods.client = result.memory;
      await waitTerminal(url, result.id);
      return result;
    };
    const curl = async () => {
      const probe = startPeakProbe(service.pid);
      const result = await curlUpload(url, file, path.join(dir, 'curl-answer.json'));
      lastServiceGrowth = probe.stop();
      await waitTerminal(url, result.id);
      return result.ms;
    };

    // Warm the page cache, the service and curl; these runs are not counted.
    await ours();
    await curl();
    const noteService = (rep: number) => (serviceGrowth[rep] ??= []).push(lastServiceGrowth);
    const runs = await alternate(
      context.reps,
      async (rep) => {
        const result = await ours();
        noteService(rep);
        context.log(`upload rep ${rep + 1}/${context.reps}: client ${result.ms.toFixed(0)} ms, client growth ${result.growthMiB.toFixed(1)} MiB, service growth ${lastServiceGrowth.toFixed(1)} MiB`);
        return result;
      },
      async (rep) => {
        const ms = await curl();
        noteService(rep);
        context.log(`upload rep ${rep + 1}/${context.reps}: curl -F ${ms.toFixed(0)} ms, service growth ${lastServiceGrowth.toFixed(1)} MiB`);
        return ms;
      },
    );
    return {
      fileMiB,
      clientMs: runs.ours.map((run) => run.ms),
      curlMs: runs.peer,
      clientGrowthMiB: runs.ours.map((run) => run.growthMiB),
      serviceGrowthMiB: serviceGrowth.map((both) => Math.max(...both)),
      memoryMethod: methods,
    };
  } finally {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** `curl -F` of the file to the async endpoint; its own transfer time (%{time_total}), without process start-up. */
async function curlUpload(url: string, file: string, answer: string): Promise<{ id: string; ms: number }> {
  const { stdout } = await execFileAsync('curl', [
    '-sS', '-o', answer, '-w', '%{http_code} %{time_total}',
    '-H', `Authorization: Bearer ${KEY}`,
    '-F', 'attributes={"file_name":"bench.bin"};type=application/json',
    '-F', `file=@${file};type=application/octet-stream`,
    `${url}/file-scans`,
  ]);
  const [status, seconds] = stdout.trim().split(' ');
  if (status !== '202') throw new Error(`curl -F got HTTP ${status}: ${readFileSync(answer, 'utf8').slice(0, 500)}`);
  return { id: (JSON.parse(readFileSync(answer, 'utf8')) as { id: string }).id, ms: Number(seconds) * 1000 };
}

/** Polls the scan until it leaves `processing` (the next upload must not overlap its scan). */
export async function waitTerminal(url: string, id: string, key = KEY): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/file-scans/${id}`, { headers: { authorization: `Bearer ${key}` } });
    const scan = (await response.json()) as { status?: string };
    if (scan.status !== 'processing') {
      if (scan.status !== 'completed') throw new Error(`scan ${id} ended ${scan.status ?? JSON.stringify(scan)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`scan ${id} did not finish within 120 s`);
}

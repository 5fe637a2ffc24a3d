// Service-client benchmark (a report, not a test): `node test/bench/client-upload.ts [MiB] [scans]`.
//
// 1. Upload: the local service runs in a child process; a 100 MB file is
//    uploaded async by our client (each run in a fresh child process, which
//    reports its peak RSS growth: VmHWM after the upload minus VmHWM after a
//    warm-up upload) and by `curl -F`, alternately, 5 times each. Prints the
//    medians, their ratio (target ≤ 1.15) and the client's memory growth
//    (target < 32 MB). For reference it also measures the FormData +
//    fs.openAsBlob body the client does not use, and why.
// 2. Polling: a service whose engine takes 1–5 s per scan (random); 200 small
//    files submitted async and followed by the poller, under the app's
//    default request budget and then a generous one. Prints GET requests per
//    scan (target ≤ 3), counted by the fault proxy in front of the service.
//    `0` for MiB or scans skips that part.
//
// Internally the same file is also the two child programs (`--role service`, `--role upload`).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { request } from 'undici';
import { BuiltinEngine } from '../../electron/engine/builtin-engine.ts';
import { startLocalService } from '../../electron/local-service/server.ts';
import { createRequestBudget, DEFAULT_REQUEST_BUDGET } from '../../electron/request-budget/request-budget.ts';
import { createServiceClient } from '../../electron/service-client/client.ts';
import { createPoller } from '../../electron/service-client/poller.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';

const KEY = 'bench-key-0123456789';
const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** Peak resident set size of this process so far, in MiB. */
const peakRssMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// ---- child: the service ------------------------------------------------------

async function serviceRole() {
  const minMs = Number(arg('min-delay-ms') ?? 0);
  const maxMs = Number(arg('max-delay-ms') ?? 0);
  const builtin = new BuiltinEngine();
  // The scan itself is quick; the wait models an engine that takes 1–5 s.
  const engine = {
    name: 'bench',
    async scan(filePath: string, signal?: AbortSignal) {
      if (maxMs > 0) await new Promise((resolve) => setTimeout(resolve, minMs + Math.random() * (maxMs - minMs)));
      return builtin.scan(filePath, signal);
    },
  };
  const service = await startLocalService({
    apiKeys: [KEY],
    dataDir: arg('data-dir')!,
    engine,
    rateLimit: false,
    scanConcurrency: 512,
    port: 0,
  });
  console.log(JSON.stringify({ url: service.url }));
  process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
}

// ---- child: one upload ---------------------------------------------------------

async function uploadRole() {
  const url = arg('url')!;
  const filePath = arg('file')!;
  const variant = arg('variant') ?? 'client';
  const warmPath = arg('warm')!;
  const client = createServiceClient({ baseUrl: url, apiKey: () => KEY });

  const viaClient = async (p: string) => {
    const size = statSync(p).size;
    return (await client.submitAsync({ path: p, size, name: path.basename(p) }, { file_name: 'bench.bin' })).id;
  };
  // The rejected alternative: FormData holding fs.openAsBlob, encoded by Response, counted as it streams.
  const viaFormData = async (p: string) => {
    const form = new FormData();
    form.append('attributes', new Blob([JSON.stringify({ file_name: 'bench.bin' })], { type: 'application/json' }));
    form.append('file', await openAsBlob(p), 'bench.bin');
    const encoded = new Response(form);
    let sent = 0;
    const counted = encoded.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const response = await request(`${url}/file-scans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': encoded.headers.get('content-type')! },
      body: counted as unknown as AsyncIterable<Uint8Array> as never,
    });
    const json = (await response.body.json()) as { id: string };
    if (sent === 0) throw new Error('nothing sent');
    return json.id;
  };
  const upload = variant === 'formdata' ? viaFormData : viaClient;

  await upload(warmPath); // modules loaded, connection pool and JIT warm
  const before = peakRssMb();
  const start = performance.now();
  const id = await upload(filePath);
  const ms = performance.now() - start;
  const growthMb = peakRssMb() - before;
  await client.close();
  console.log(JSON.stringify({ id, ms, growthMb }));
}

// ---- parent ---------------------------------------------------------------------

async function startServiceChild(dataDir: string, delay?: { min: number; max: number }) {
  const args = [SELF, '--role', 'service', '--data-dir', dataDir];
  if (delay) args.push('--min-delay-ms', String(delay.min), '--max-delay-ms', String(delay.max));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`service child exited (${code})`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function waitTerminal(url: string, id: string) {
  for (;;) {
    const response = await request(`${url}/file-scans/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
    const scan = (await response.body.json()) as { status: string };
    if (scan.status !== 'processing') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function benchUpload(dir: string, mib: number) {
  const file = path.join(dir, 'upload.bin');
  for (let i = 0; i < mib; i++) writeFileSync(file, randomBytes(1024 * 1024), { flag: i === 0 ? 'w' : 'a' });
  const warm = path.join(dir, 'warm.bin');
  writeFileSync(warm, randomBytes(256 * 1024));
  const { child, url } = await startServiceChild(path.join(dir, 'service-upload'));
  try {
    const ours = async (variant = 'client') => {
      const { stdout } = await run(process.execPath, [SELF, '--role', 'upload', '--variant', variant, '--url', url, '--file', file, '--warm', warm], {
        maxBuffer: 1 << 20,
      });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { id: string; ms: number; growthMb: number };
      await waitTerminal(url, result.id); // the service's background scan must not overlap the next run
      return result;
    };
    const curl = async () => {
      const { stdout } = await run('curl', [
        '-sS',
        '-o',
        path.join(dir, 'curl-answer.json'),
        '-w',
        '%{http_code} %{time_total}',
        '-H',
        `Authorization: Bearer ${KEY}`,
        '-F',
        `file=@${file}`,
        '-F',
        'attributes={"file_name":"bench.bin"};type=application/json',
        `${url}/file-scans`,
      ]);
      const [status, seconds] = stdout.trim().split(' ');
      if (status !== '202') throw new Error(`curl got HTTP ${status}`);
      const { id } = JSON.parse(readFileSync(path.join(dir, 'curl-answer.json'), 'utf8')) as { id: string };
      await waitTerminal(url, id);
      return Number(seconds) * 1000;
    };

    await ours(); // warm the page cache and the service
    await curl();
    const oursMs: number[] = [];
    const growth: number[] = [];
    const curlMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await ours();
      oursMs.push(result.ms);
      growth.push(result.growthMb);
      curlMs.push(await curl());
    }
    const formData: number[] = [];
    const formDataMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await ours('formdata');
      formData.push(result.growthMb);
      formDataMs.push(result.ms);
    }
    const ratio = median(oursMs) / median(curlMs);
    console.log(`\nUpload of ${mib} MiB, async, local service in a child process (5 runs each, alternating)`);
    console.log(`  client  median ${median(oursMs).toFixed(0)} ms   runs ${oursMs.map((v) => v.toFixed(0)).join(' ')}`);
    console.log(`  curl -F median ${median(curlMs).toFixed(0)} ms   runs ${curlMs.map((v) => v.toFixed(0)).join(' ')}`);
    console.log(`  ratio client/curl ${ratio.toFixed(2)} (target <= 1.15) ${ratio <= 1.15 ? 'OK' : 'MISSED'}`);
    console.log(
      `  client peak RSS growth median ${median(growth).toFixed(1)} MiB, max ${Math.max(...growth).toFixed(1)} MiB (target < 32) ${Math.max(...growth) < 32 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  reference, FormData + fs.openAsBlob body (not used): growth median ${median(formData).toFixed(1)} MiB, time median ${median(formDataMs).toFixed(0)} ms`,
    );
  } finally {
    await stopChild(child);
  }
}

async function benchPolling(dir: string, scans: number, limits: { ratePerSecond: number; burst: number }) {
  const { child, url } = await startServiceChild(path.join(dir, `service-poll-${limits.ratePerSecond}`), { min: 1000, max: 5000 });
  const proxy = await startFaultProxy(url);
  const budget = createRequestBudget(limits);
  const client = createServiceClient({ baseUrl: proxy.url, apiKey: () => KEY, budget });
  const done = new Map<string, number>();
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const poller = createPoller({
    client,
    onUpdate: (u) => {
      if (!u.terminal) return;
      done.set(u.scanId, u.polls);
      if (done.size === scans) resolveAll();
    },
  });
  const start = performance.now();
  try {
    const files = Array.from({ length: scans }, (_, i) => {
      const p = path.join(dir, `poll-${i}.txt`);
      writeFileSync(p, `file ${i} ${Math.random()}`);
      return { path: p, size: readFileSync(p).length, name: `poll-${i}.txt` };
    });
    // Eight uploads at a time, each tracked as soon as it is accepted (as the pipeline does).
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < files.length) {
          const i = next++;
          const { scan } = await client.submitAndResolve(files[i]!, { mode: 'async', externalReferenceId: `bench/poll/${process.pid}/${i}` });
          poller.track(scan.id, scan.external_reference_id);
        }
      }),
    );
    await all;
    const gets = proxy.count({ method: 'GET' });
    const posts = proxy.count({ method: 'POST' });
    const seconds = (performance.now() - start) / 1000;
    const perScan = [...done.values()];
    console.log(`\nPolling ${scans} async scans, engine 1-5 s per scan (random), budget ${limits.ratePerSecond} rps burst ${limits.burst}`);
    console.log(`  GET requests ${gets} for ${scans} scans = ${(gets / scans).toFixed(2)} per scan (target <= 3) ${gets / scans <= 3 ? 'OK' : 'MISSED'}`);
    console.log(`  per scan: median ${median(perScan)}, max ${Math.max(...perScan)}; POSTs ${posts}; ${seconds.toFixed(1)} s, ${((gets + posts) / seconds).toFixed(1)} requests/s overall`);
  } finally {
    await poller.stop();
    budget.close();
    await client.close();
    await proxy.close();
    await stopChild(child);
  }
}

async function main() {
  const role = arg('role');
  if (role === 'service') return serviceRole();
  if (role === 'upload') return uploadRole();
  const mib = Number(process.argv[2] ?? 100);
  const scans = Number(process.argv[3] ?? 200);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-client-bench-'));
  try {
    if (mib > 0) await benchUpload(dir, mib);
    if (scans > 0) {
      // The app's default budget, then a generous one: the poller's own schedule, unthrottled.
      await benchPolling(dir, scans, DEFAULT_REQUEST_BUDGET);
      await benchPolling(dir, scans, { ratePerSecond: 200, burst: 50 });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

// Measures the local service receiving 100 MB async uploads sent with `curl -F`:
// the service's peak memory growth (VmRSS sampled from /proc, plus VmHWM) and
// curl's wall time, next to curl against a do-nothing sink that only drains
// the body (the transport floor). Run: node test/bench/service-upload.ts [runs]
// Linux only (/proc). The service runs in a child process so its RSS is its own.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { MAX_ASYNC_FILE_SIZE, MB } from '../../shared/service-contract/limits.ts';

const RUNS = Number(process.argv[2] ?? 5);
const KEY = 'bench-key-0000001';
const CLI = join(import.meta.dirname, '../../electron/local-service/cli.ts');
const TARGET_GROWTH_MB = 32;

// A server that reads and drops the body, then answers like the service would.
const SINK = `require('http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(202, {'content-type': 'application/json'}); s.end('{}'); }); })
  .listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port); });`;

interface Child {
  process: ChildProcess;
  url: string;
}

function startChild(args: string[]): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url) resolve({ process: child, url });
    });
    child.once('exit', (code) => reject(new Error(`child exited early (${code}): ${out}`)));
  });
}

async function stopChild(child: Child): Promise<void> {
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await exited;
}

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU time (user + system) the process has used, in ms; /proc/<pid>/stat counts clock ticks (USER_HZ, 100 on Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function writeFileOfSize(path: string, size: number): Promise<void> {
  const block = randomBytes(MB);
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size; written += MB) await handle.write(block, 0, Math.min(MB, size - written));
  } finally {
    await handle.close();
  }
}

/** One `curl -F` upload, timed; returns wall ms and the response body. */
async function curlUpload(url: string, file: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const { stdout } = await promisify(execFile)('curl', [
    '-sS', '--fail-with-body', '-H', `Authorization: Bearer ${KEY}`,
    '-F', `file=@${file};type=application/octet-stream`, '-F', 'attributes={"file_name":"bench.bin"};type=application/json',
    `${url}/file-scans`,
  ], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  return { ms: performance.now() - started, body: stdout };
}

async function waitUntilTerminal(url: string, id: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await request(`${url}/file-scans/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
    const scan = (await response.body.json()) as { status: string };
    if (scan.status !== 'processing') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`scan ${id} did not finish`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const mb = (bytes: number) => (bytes / MB).toFixed(1);

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'verdict-bench-'));
  const file = join(scratch, 'upload-100mb.bin');
  await writeFileOfSize(file, MAX_ASYNC_FILE_SIZE);

  const service = await startChild([CLI, '--port', '0', '--engine', 'builtin', '--api-key', KEY, '--data-dir', join(scratch, 'data'), '--quiet']);
  const sink = await startChild(['-e', SINK]);
  const pid = service.process.pid as number;
  try {
    // Warm up both (module loading, first connection) before measuring.
    await waitUntilTerminal(service.url, (JSON.parse((await curlUpload(service.url, file)).body) as { id: string }).id);
    await curlUpload(sink.url, file);

    const startMemory = memoryOf(pid);
    const rows: Array<{ run: number; serviceMs: number; cpuMs: number; sinkMs: number; growth: number }> = [];
    for (let run = 1; run <= RUNS; run++) {
      const baseline = memoryOf(pid).rss;
      const cpuBefore = cpuMsOf(pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 5);
      const upload = await curlUpload(service.url, file);
      clearInterval(sampler);
      peak = Math.max(peak, memoryOf(pid).rss);
      const cpuMs = cpuMsOf(pid) - cpuBefore;
      await waitUntilTerminal(service.url, (JSON.parse(upload.body) as { id: string }).id);
      const sinkUpload = await curlUpload(sink.url, file);
      rows.push({ run, serviceMs: upload.ms, cpuMs, sinkMs: sinkUpload.ms, growth: peak - baseline });
    }
    const endMemory = memoryOf(pid);

    console.log(`\n100 MB async uploads with curl -F, ${RUNS} runs (service: builtin engine, child pid ${pid})\n`);
    console.log('run | curl → service (ms) | service CPU (ms) | curl → sink (ms) | service peak RSS growth (MB)');
    console.log('----|---------------------|------------------|------------------|-----------------------------');
    for (const row of rows) {
      console.log(
        `${String(row.run).padStart(3)} | ${row.serviceMs.toFixed(0).padStart(19)} | ${String(row.cpuMs).padStart(16)} | ${row.sinkMs.toFixed(0).padStart(16)} | ${mb(row.growth).padStart(28)}`,
      );
    }
    const serviceMedian = median(rows.map((row) => row.serviceMs));
    const sinkMedian = median(rows.map((row) => row.sinkMs));
    const worstGrowth = Math.max(...rows.map((row) => row.growth));
    console.log('');
    console.log(`median service CPU per upload: ${median(rows.map((row) => row.cpuMs)).toFixed(0)} ms (md5 + sha1 + sha256, multipart parsing, disk write)`);
    console.log(`median wall time: service ${serviceMedian.toFixed(0)} ms (${(100 / (serviceMedian / 1000)).toFixed(0)} MB/s), sink ${sinkMedian.toFixed(0)} ms, ratio ${(serviceMedian / sinkMedian).toFixed(2)}`);
    console.log(`peak RSS growth while receiving (sampled every 5 ms): worst ${mb(worstGrowth)} MB (target < ${TARGET_GROWTH_MB} MB)`);
    console.log(`VmHWM growth over the measured runs: ${mb(endMemory.hwm - startMemory.hwm)} MB; VmRSS ${mb(startMemory.rss)} → ${mb(endMemory.rss)} MB`);
    console.log(worstGrowth < TARGET_GROWTH_MB * MB ? 'PASS: memory growth under target' : 'FAIL: memory growth over target');
    if (worstGrowth >= TARGET_GROWTH_MB * MB) process.exitCode = 1;
  } finally {
    await stopChild(service);
    await stopChild(sink);
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();

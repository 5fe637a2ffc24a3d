// The local service as its own process (`node electron/local-service/cli.ts`,
// what `npm run service` runs) under bodies far larger than memory should hold
// and under a request flood. Its peak resident memory (VmHWM, kept by the
// kernel, so no spike is missed between samples) must stay well below the
// bytes sent: the service streams, it never buffers a whole body. Floods get
// 429 with Retry-After, and the service serves normally afterwards.
//
// Bounds: Node's garbage collector lets ~75 MB of already-processed chunks
// pile up before collecting (measured: the same +72–78 MB growth for a 100 MB
// and a 400 MB field), so the bounds are "half of what was sent", not "zero".
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { submit, waitFor } from '../local-service/harness.ts';
import { MiB, processMemory, resetPeak } from '../../support/process-memory.ts';
import { repeatedBytes } from '../../support/raw-http.ts';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.ts';
import { BOUNDARY, attributesPart, expectErrorReply, filePart, rawPost } from './attack-kit.ts';

const KEY = 'reliability-memory-key-0001';
let scratch: string;
let service: ServiceProcess;
let baseline: number;

/** A valid submission followed by a text field of `size` bytes named `name`, generated lazily. */
function* withHugeField(name: string, size: number): Generator<Buffer> {
  yield filePart('small file\n', 'small.txt');
  if (name !== 'attributes') yield attributesPart('{"file_name":"small.txt"}');
  yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`);
  yield* repeatedBytes(size);
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

const peakGrowth = async () => ((await processMemory(service.pid)).peak - baseline) / MiB;

/** Bytes the kernel holds for the service that it has not read yet (Recv-Q of its connections, from `ss`). */
function unreadBytes(port: number): number {
  const out = execFileSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[0] ?? 0), 0);
}

/** Resets the kernel's peak for the service and returns its RSS now: the base for one test's growth. */
async function freshBase(): Promise<number> {
  await resetPeak(service.pid);
  return (await processMemory(service.pid)).rss;
}

async function expectServing(): Promise<void> {
  const reply = await submit(service.url, { key: KEY, mode: 'sync', attributes: { file_name: 'still-fine.txt' } });
  expect(reply.status).toBe(200);
  expect(terminalScanSchema.parse(reply.body).status).toBe('completed');
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'verdict-reliability-memory-'));
  service = await startServiceProcess({ apiKeys: [KEY], dataDir: join(scratch, 'data') });
  await expectServing();
  baseline = (await processMemory(service.pid)).rss;
});

afterAll(async () => {
  await service?.stop();
  await rm(scratch, { recursive: true, force: true });
});

describe('bodies much larger than memory should hold', () => {
  // 300 MB rather than the 100 MB the attack list names: the collector's lag alone reaches ~75 MB, so only a body
  // well above it tells streaming (growth stays near the lag) from buffering (growth ≥ the body) on any machine.
  it('a 300 MB "attributes" field: 400 invalid_request, streamed, not buffered', async () => {
    const reply = await rawPost(service.port, withHugeField('attributes', 300 * MiB), {}, KEY);
    expect(expectErrorReply(reply, 400, 'invalid_request')).toMatch(/larger than 65536 bytes/);
    const growth = await peakGrowth();
    console.log(`300 MB attributes field: service peak RSS growth ${growth.toFixed(1)} MiB`);
    expect(growth).toBeLessThan(150);
  });

  it('a 100 MB unknown text field next to a valid submission: ignored (documented)', async () => {
    const reply = await rawPost(service.port, withHugeField('comment', 100 * MiB), {}, KEY);
    expect(reply.status, reply.body).toBe(202);
  });

  it('a 300 MB field: memory does not grow with the body (peak growth < half of it)', async () => {
    const reply = await rawPost(service.port, withHugeField('comment', 300 * MiB), {}, KEY);
    expect(reply.status, reply.body).toBe(202);
    const growth = await peakGrowth();
    console.log(`after a 300 MB field: service peak RSS growth ${growth.toFixed(1)} MiB over ${(baseline / MiB).toFixed(1)} MiB`);
    expect(growth).toBeLessThan(150);
    await waitFor(async () => (await readdir(join(scratch, 'data', 'incoming'))).length === 0, 'incoming/ to be empty');
    await expectServing();
  });
});

describe('many uploads held open halfway', () => {
  /** What each held upload sends before it stalls (half of its declared Content-Length). */
  const HELD_BYTES = 4 * MiB;

  /**
   * A fresh service process; `connections` uploads each send ~4 MiB into their file part and then
   * nothing. Returns the service's peak RSS growth once it has read every byte (its receive queues are
   * empty), in MiB.
   */
  async function growthWithHeldUploads(connections: number): Promise<number> {
    const own = await startServiceProcess({ apiKeys: [KEY], dataDir: join(scratch, `held-${connections}`) });
    const sockets: Socket[] = [];
    try {
      expect((await submit(own.url, { key: KEY, mode: 'sync' })).status).toBe(200);
      await resetPeak(own.pid);
      const before = (await processMemory(own.pid)).rss;
      const head = `POST /file-scans HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${2 * HELD_BYTES}\r\n\r\n`;
      const start = Buffer.concat([
        Buffer.from(head),
        attributesPart('{"file_name":"held.bin"}'),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="held.bin"\r\n\r\n`),
      ]);
      const payload = Buffer.concat([start, randomBytes(HELD_BYTES - 4096)]);
      await Promise.all(
        Array.from({ length: connections }, async () => {
          const socket = connect(own.port, '127.0.0.1');
          socket.on('error', () => {});
          sockets.push(socket);
          await new Promise<void>((resolve) => socket.once('connect', resolve));
          await new Promise<void>((resolve) => socket.write(payload, () => resolve()));
        }),
      );
      // The service has read every byte: nothing waits in its receive queues.
      await waitFor(async () => sockets.every((s) => s.writableLength === 0) && unreadBytes(own.port) === 0, 'the service to read every byte', 30_000);
      expect((await submit(own.url, { key: KEY, mode: 'sync' })).status).toBe(200);
      return ((await processMemory(own.pid)).peak - before) / MiB;
    } finally {
      for (const socket of sockets) socket.destroy();
      await own.stop();
    }
  }

  it('memory per upload held open is a fraction of its bytes (no body is kept whole in memory)', async () => {
    // Two sizes in fresh processes: the difference is the cost of 200 more held uploads, without the GC's constant lag.
    const few = await growthWithHeldUploads(50);
    const many = await growthWithHeldUploads(250);
    const perUpload = (many - few) / 200;
    console.log(`uploads held open after ~4 MiB each: 50 → +${few.toFixed(1)} MiB, 250 → +${many.toFixed(1)} MiB; ${perUpload.toFixed(2)} MiB per extra upload`);
    // Holding each body would cost ≥ 4 MiB per upload. Streaming costs the stream buffers between the socket and the
    // spill file (about 5 × 64 KiB) plus garbage the collector has not reclaimed yet: measured 0.46–0.52 MiB here, and
    // a CI machine measured 0.22 MiB more than this one with 1 MiB bodies. Half of the body separates the two cleanly.
    expect(perUpload).toBeLessThan(HELD_BYTES / MiB / 2);
  });
});

describe('a request flood', () => {
  it('answers 429 with Retry-After past the limit, stays within bounded memory, and serves normally afterwards', async () => {
    const before = await freshBase();
    // 500 connections that send half a request head and then nothing (slowloris).
    const idle: Socket[] = [];
    for (let i = 0; i < 500; i++) {
      const socket = connect(service.port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(`GET /file-scans/x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n`);
      idle.push(socket);
    }
    try {
      const pool = new Pool(service.url, { connections: 64 });
      const statuses = new Map<number, number>();
      let retryAfter: string | undefined;
      let limitedBody = '';
      let next = 0;
      const TOTAL = 6_000;
      const worker = async () => {
        while (next < TOTAL) {
          next++;
          const answer = await pool.request({ method: 'GET', path: '/file-scans/00000000-0000-4000-8000-000000000000', headers: { authorization: `Bearer ${KEY}` } });
          const text = await answer.body.text();
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          if (answer.statusCode === 429) {
            retryAfter = String(answer.headers['retry-after']);
            limitedBody = text;
          }
        }
      };
      // 60 uploads of 5 MB (300 MB in flight) at the same time as the GETs.
      const file = randomBytes(5 * MiB);
      const uploads = Promise.all(Array.from({ length: 60 }, () => submit(service.url, { key: KEY, file, attributes: { file_name: 'flood.bin' } }).then((r) => r.status)));
      await Promise.all(Array.from({ length: 64 }, worker));
      const uploadStatuses = await uploads;
      await pool.close();

      const growth = ((await processMemory(service.pid)).peak - before) / MiB;
      console.log(`flood: GETs ${JSON.stringify(Object.fromEntries(statuses))}, uploads ${JSON.stringify(uploadStatuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}))}, peak RSS growth ${growth.toFixed(1)} MiB`);
      expect([...statuses.keys()].sort()).toEqual([404, 429]);
      for (const status of uploadStatuses) expect([202, 429]).toContain(status);
      // Default limit 200/s with a burst of 1000: most of 6,000 quick requests are over it.
      expect(statuses.get(429)).toBeGreaterThan(1_000);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(Number(retryAfter))).toBe(true);
      expect(JSON.parse(limitedBody)).toMatchObject({ code: 'rate_limited' });
      expect(growth).toBeLessThan(150);
    } finally {
      for (const socket of idle) socket.destroy();
    }
    // After the Retry-After wait (bounded), a normal scan succeeds.
    await waitFor(async () => (await submit(service.url, { key: KEY, mode: 'sync' })).status === 200, 'the bucket to refill', 20_000);
    await expectServing();
    expect(service.child.exitCode).toBeNull();
    await waitFor(async () => (await readdir(join(scratch, 'data', 'incoming'))).length === 0, 'incoming/ to be empty');
  });
});

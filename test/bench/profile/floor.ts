// The floor of issue 15's per-file cost: the CPU that the steps the issue keeps
// ("What must not be given up") cost on this machine with nothing of Verdict's
// own around them, for case 5's files (1,000 of 4–64 KB), each measured alone:
// - http: an undici request with a multipart body from memory to a node:http
//   server in a worker thread that parses it with busboy and answers small JSON
//   (the one code path: files go to the service over HTTP), 6 at a time;
// - hashes: md5, sha1 and sha256 of every byte on the service side (the spec's
//   file_hash), sha256 on the client side (verdict reuse);
// - history: one row inserted and committed before its upload, and updated with
//   the verdict (ten to a commit) (WAL, synchronous=NORMAL, one table with one index);
// - clamd: INSTREAM of each file to clamd from this process (the client side only).
// Their sum is what any design that keeps those steps spends, on top of clamd.
// Run: node test/bench/profile/floor.ts [N]
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { startClamd } from '../../support/clamd.ts';
import { noise } from '../../fixtures/engine-files.ts';
import { cpuBetween, threadTimes } from '../cases/support/thread-cpu.ts';
import { smallFileSize } from '../clamd-engine.ts';

const count = Number(process.argv[2] ?? 1000);
const files = Array.from({ length: count }, (_, i) => noise(smallFileSize(i), i + 1));

/** CPU ms per file of every thread of this process while `work` runs. */
async function perFile(label: string, work: () => Promise<void> | void): Promise<number> {
  const before = threadTimes();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const after = threadTimes();
  const cpu = before && after ? cpuBetween(before, after) : new Map<string, number>();
  const total = [...cpu.values()].reduce((a, b) => a + b, 0) / count;
  const threads = [...cpu].sort((a, b) => b[1] - a[1]).map(([name, spent]) => `${name} ${(spent / count).toFixed(3)}`).join(', ');
  console.log(`${label.padEnd(8)} ${total.toFixed(3)} ms CPU per file (${threads}); ${((count / ms) * 1000).toFixed(0)} files/s`);
  return total;
}

const SERVER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const busboy = require(${JSON.stringify(createRequire(import.meta.url).resolve('busboy'))});
const server = http.createServer((req, res) => {
  const parser = busboy({ headers: req.headers });
  let size = 0;
  parser.on('file', (_name, stream) => stream.on('data', (chunk) => (size += chunk.length)));
  parser.on('field', () => {});
  parser.on('close', () => {
    const body = JSON.stringify({ id: 'x'.repeat(36), status: 'completed', size });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  req.pipe(parser);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

async function http(): Promise<number> {
  const worker = new Worker(SERVER, { eval: true, name: 'floor-server' });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const agent = new Agent();
  const boundary = `----floor${randomUUID()}`;
  const send = async (content: Buffer, i: number) => {
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="attributes"\r\n\r\n{"external_reference_id":"${randomUUID()}"}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const body = Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const response = await request(`http://127.0.0.1:${port}/file-scans/sync`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: 'Bearer x' },
      body,
    });
    JSON.parse(await response.body.text());
  };
  const total = await perFile('http', async () => {
    let next = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      while (next < count) {
        const i = next++;
        await send(files[i] as Buffer, i);
      }
    }));
  });
  await agent.close();
  await worker.terminate();
  return total;
}

function hashes(): Promise<number> {
  return perFile('hashes', () => {
    for (const content of files) {
      for (const name of ['md5', 'sha1', 'sha256', 'sha256']) createHash(name).update(content).digest('hex');
    }
  });
}

async function history(): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'verdict-floor-'));
  const db = new DatabaseSync(path.join(dir, 'h.db'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec('CREATE TABLE scans (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, path TEXT, status TEXT, sha256 TEXT, verdict TEXT)');
  const insert = db.prepare('INSERT INTO scans (id, path, status, sha256) VALUES (?, ?, ?, ?)');
  const update = db.prepare('UPDATE scans SET status = ?, verdict = ? WHERE id = ?');
  const total = await perFile('history', () => {
    // Each row committed before its upload; the verdicts committed ten at a time.
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      insert.run(id, `/home/user/Downloads/f${i}.bin`, 'uploading', 'a'.repeat(64));
      ids.push(id);
      if (ids.length < 10 && i < count - 1) continue;
      db.exec('BEGIN');
      for (const done of ids.splice(0)) update.run('completed', 'safe', done);
      db.exec('COMMIT');
    }
  });
  db.close();
  await rm(dir, { recursive: true, force: true });
  return total;
}

async function clamd(): Promise<number | null> {
  const server = await startClamd();
  if (!server) return null;
  const engine = new ClamdEngine({ endpoint: { socketPath: server.socketPath }, sessions: 2 });
  try {
    await engine.scanBytes(files[0] as Buffer);
    return await perFile('clamd', async () => {
      let next = 0;
      await Promise.all(Array.from({ length: 2 }, async () => {
        while (next < count) await engine.scanBytes(files[next++] as Buffer);
      }));
    });
  } finally {
    await engine.close();
    await server.stop();
  }
}

const parts = [await http(), await hashes(), await history(), await clamd()];
const sum = parts.reduce<number>((a, b) => a + (b ?? 0), 0);
console.log(`floor    ${sum.toFixed(3)} ms CPU per file, besides clamd's own`);

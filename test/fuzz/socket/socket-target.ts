// The socket-level mutation fuzzer: `npm run service` (the real CLI, a child
// process, loopback only) gets damaged and pipelined requests, cut into
// separate writes, ended by a sentinel request, a half-close or a reset. Every
// answer must keep the contract (a documented status, the JSON error body), a
// connection may end without an answer only when the request was malformed,
// and the process must survive: a death is a finding of the connection that
// caused it (the service is then restarted).
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.ts';
import { FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { contractProblem } from '../targets/support/answers.ts';
import { connectionScript, parseAnswers, requestBytes, type ConnectionScript } from './wire.ts';

/** The health check's own key: an integration of its own, so the fuzzer's traffic never spends its rate limit. */
const KEY = 'fuzz-socket-health-key-0001';
/** Several keys: the rate limit is per integration, and the fuzzer is one fast client. */
const KEYS = Array.from({ length: 8 }, (_, i) => `fuzz-socket-key-000${i + 1}`);
/** After the last byte written, how long a silent connection is given before it is dropped. */
const IDLE_MS = 600;
const MAX_CONNECTION_MS = 8_000;

const SENTINEL = (port: number, key: string) => `GET /file-scans/fuzz-sentinel HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`;

function payloadOf(script: ConnectionScript, port: number, key: string): Buffer {
  let payload = Buffer.concat(script.requests.map((request) => requestBytes(request, port, key)));
  for (const change of script.damage) {
    const at = Math.floor(change.at * payload.length);
    payload = Buffer.concat([payload.subarray(0, at), Buffer.from(change.text, 'utf8'), payload.subarray(at)]);
  }
  return script.ending === 'sentinel' ? Buffer.concat([payload, Buffer.from(SENTINEL(port, key))]) : payload;
}

/** Writes the script on one connection; resolves with every byte the service sent back. */
export async function exchange(script: ConnectionScript, port: number, key: string): Promise<{ data: Buffer; closedByServer: boolean }> {
  const payload = payloadOf(script, port, key);
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let closedByServer = false;
  let idle: NodeJS.Timeout | undefined;
  const finished = new Promise<void>((resolve) => {
    const overall = setTimeout(() => socket.destroy(), MAX_CONNECTION_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (idle) idle.refresh();
    });
    socket.on('end', () => (closedByServer = true));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(overall);
      clearTimeout(idle);
      resolve();
    });
  });
  socket.on('connect', () => {
    void (async () => {
      const points = [...new Set(script.cuts.map((cut) => Math.floor(cut * payload.length)))].sort((a, b) => a - b);
      const stopAt = script.ending === 'abort' ? (points[0] ?? payload.length >> 1) : payload.length;
      let start = 0;
      for (const point of [...points.filter((p) => p < stopAt), stopAt]) {
        if (socket.destroyed) return;
        socket.write(payload.subarray(start, point));
        start = point;
        await nextTurn();
      }
      if (script.ending === 'abort') return void socket.resetAndDestroy();
      if (script.ending === 'half-close') socket.end();
      idle = setTimeout(() => socket.destroy(), IDLE_MS);
    })();
  });
  await finished;
  return { data: Buffer.concat(chunks), closedByServer };
}

/** Why the service is not answering a plain request as documented, or null when it is. */
async function notAnswering(service: ServiceProcess): Promise<string | null> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return `it exited (${service.child.exitCode ?? service.child.signalCode})`;
  try {
    const response = await fetch(`${service.url}/file-scans/fuzz-health`, { headers: { authorization: `Bearer ${KEY}` }, signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as { code?: unknown };
    // A 429 is an answer too: silent connections each cost a check, and the checks can outrun the key's rate limit.
    const documented = (response.status === 404 && body.code === 'not_found') || (response.status === 429 && body.code === 'rate_limited');
    return documented ? null : `a GET answered ${response.status} ${JSON.stringify(body).slice(0, 200)}`;
  } catch (error) {
    return `a GET failed: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`;
  }
}

export const socketTarget: FuzzTarget<ConnectionScript> = {
  name: 'socket',
  about: 'raw loopback connections to npm run service: damaged, pipelined, cut, half-closed; every answer documented, the process survives',
  smoke: { runs: 40 },
  async: true,
  async open() {
    const root = mkdtempSync(join(tmpdir(), 'verdict-fuzz-socket-'));
    let starts = 0;
    const start = () => startServiceProcess({ apiKeys: [KEY, ...KEYS], dataDir: join(root, `run-${starts++}`), engine: 'builtin', syncWindowMs: 10_000 });
    let service = await start();
    let connections = 0;
    return {
      arbitrary: connectionScript,
      async check(script) {
        if (service.child.exitCode !== null || service.child.signalCode !== null) service = await start();
        const key = KEYS[connections++ % KEYS.length] as string;
        const { data } = await exchange(script, service.port, key);
        const { answers, rest } = parseAnswers(data);
        for (const answer of answers) {
          const problem = contractProblem(answer);
          if (problem) throw new FuzzFinding(problem);
        }
        if (rest.length > 0 && script.ending === 'sentinel') throw new FuzzFinding(`bytes that are no answer: ${JSON.stringify(rest.subarray(0, 120).toString('latin1'))}`);
        // Every connection costs a check of the child; a request every 25, or after a silent connection.
        const exited = service.child.exitCode !== null || service.child.signalCode !== null;
        const problem = exited || answers.length === 0 || connections % 25 === 0 ? await notAnswering(service) : null;
        if (problem) {
          const output = service.output().slice(-1500);
          await service.stop();
          throw new FuzzFinding(`the service died or stopped answering (${problem}):\n${output}`);
        }
      },
      async close() {
        await service.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  },
};

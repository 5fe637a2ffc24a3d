// The multipart receiver (upload/receive-submission.ts) behind the real HTTP
// server, in a worker thread of this process: every submission gets an answer
// of the documented shape (never a 500), and the service thread never dies. A
// thread that dies is a finding of the input that killed it (then restarted).
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { connect } from 'node:net';
import { requestHead } from '../../support/raw-http.ts';
import { parseAnswers, type Answer } from '../socket/wire.ts';
import { FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { contractProblem } from './support/answers.ts';
import { multipartBody, multipartInput, type MultipartInput } from './support/multipart.ts';

const KEY = 'fuzz-multipart-key-0001';
const THREAD = new URL('./support/service-thread.ts', import.meta.url);

interface Running {
  worker: Worker;
  port: number;
  /** Set once the thread has died, with why. */
  death: Error | null;
}

async function startThread(dataDir: string): Promise<Running> {
  const worker = new Worker(THREAD, { workerData: { dataDir, apiKey: KEY } });
  const running: Running = { worker, port: 0, death: null };
  worker.on('error', (error) => (running.death ??= error));
  worker.on('exit', (code) => (running.death ??= new Error(`the service thread exited (${code})`)));
  running.port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port: number }) => resolve(message.port));
    worker.once('exit', () => reject(running.death ?? new Error('the service thread ended before listening')));
  });
  return running;
}

export function submissionRequest(input: MultipartInput, port: number, key = KEY): { head: string; body: Buffer } {
  const body = multipartBody(input);
  const headers: Record<string, string | number> = {
    Host: `127.0.0.1:${port}`,
    Authorization: `Bearer ${key}`,
    'Content-Type': input.contentType.replaceAll('{b}', input.boundary),
    ...(input.chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': body.length }),
    ...(input.expectContinue ? { Expect: '100-continue' } : {}),
    Connection: 'close',
  };
  const head = requestHead('POST', input.mode === 'sync' ? '/file-scans/sync' : '/file-scans', headers);
  const half = body.length >> 1;
  const chunk = (part: Buffer) => (part.length === 0 ? [] : [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
  return { head, body: input.chunked ? Buffer.concat([...chunk(body.subarray(0, half)), ...chunk(body.subarray(half)), Buffer.from('0\r\n\r\n')]) : body };
}

/**
 * Sends a request as a careful client does: with `Expect: 100-continue` the body
 * goes only after `100 Continue` (or after a second without an answer, as curl does);
 * a final answer instead means the body is not sent. Resolves with the answer, or why there is none.
 */
export function sendRequest(port: number, head: string, body: Buffer, expectContinue: boolean, timeoutMs = 15_000): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error = 'closed';
    let bodySent = false;
    const sendBody = () => {
      if (bodySent || socket.destroyed) return;
      bodySent = true;
      socket.write(body);
    };
    const overall = setTimeout(() => {
      error = 'timeout';
      socket.destroy();
    }, timeoutMs);
    const waiting = expectContinue ? setTimeout(sendBody, 1_000) : undefined;
    socket.on('connect', () => {
      socket.write(head, 'latin1');
      if (!expectContinue) sendBody();
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!bodySent && /^HTTP\/1\.1 100 /.test(Buffer.concat(chunks).toString('latin1'))) {
        clearTimeout(waiting);
        sendBody();
      }
      if (parseAnswers(Buffer.concat(chunks)).answers.length > 0 && !socket.destroyed) {
        bodySent = true;
        socket.end();
      }
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(overall);
      clearTimeout(waiting);
      resolve(parseAnswers(Buffer.concat(chunks)).answers[0] ?? { error });
    });
  });
}

export const multipartTarget: FuzzTarget<MultipartInput> = {
  name: 'multipart',
  about: 'POST /file-scans(/sync) to the real service in a thread: a documented answer (never 500), and the thread survives',
  smoke: { runs: 50 },
  async: true,
  async open() {
    const root = mkdtempSync(join(tmpdir(), 'verdict-fuzz-multipart-'));
    let starts = 0;
    let running = await startThread(join(root, `run-${starts++}`));
    return {
      arbitrary: multipartInput,
      async check(input) {
        if (running.death) running = await startThread(join(root, `run-${starts++}`));
        const { head, body } = submissionRequest(input, running.port);
        const reply = await sendRequest(running.port, head, body, input.expectContinue);
        if ('error' in reply) {
          // A dying thread closes its sockets a moment before its 'error' arrives.
          await new Promise((resolve) => setTimeout(resolve, 50));
          if (running.death) throw new FuzzFinding(`the service thread crashed: ${running.death.message}`);
          throw new FuzzFinding(`no answer (${reply.error})`);
        }
        const problem = contractProblem(reply);
        if (problem) throw new FuzzFinding(problem);
      },
      async close() {
        if (!running.death) {
          running.worker.postMessage('close');
          await new Promise((resolve) => running.worker.once('exit', resolve));
        }
        await rm(root, { recursive: true, force: true });
      },
    };
  },
};

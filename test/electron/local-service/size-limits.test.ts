// Spec section 8: 10 MB for sync and 100 MB for async submissions. Exactly the
// limit passes, one byte more is 413 file_too_large naming the limit; the
// oversize body is never kept (nothing left in incoming/ or uploads/).
import { openAsBlob } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../shared/service-contract/errors.ts';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE, MB } from '../../../shared/service-contract/limits.ts';
import { asyncSubmissionSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { startTestService, submit, waitFor, waitForTerminal, type TestService } from './harness.ts';
import { writeSizedFile } from '../../support/sized-file.ts';

let service: TestService;

/** A file of exactly `size` real (random, non-sparse) bytes. */
const fileOfSize = (name: string, size: number): Promise<string> => writeSizedFile(join(service.scratch, name), size, randomBytes(MB));

async function expectNothingKept(): Promise<void> {
  await waitFor(async () => (await readdir(join(service.dataDir, 'incoming'))).length === 0, 'incoming/ to be empty');
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('sync limit: 10 MB', () => {
  it('accepts exactly 10 MB', async () => {
    const file = await fileOfSize('sync-exact.bin', MAX_SYNC_FILE_SIZE);
    const reply = await submit(service.url, { mode: 'sync', file: await openAsBlob(file), attributes: { file_name: 'exact.bin' } });
    expect(reply.status).toBe(200);
    expect(terminalScanSchema.parse(reply.body).file_size).toBe(10_485_760);
  });

  it('rejects 10 MB + 1 byte with 413 naming the limit', async () => {
    const file = await fileOfSize('sync-over.bin', MAX_SYNC_FILE_SIZE + 1);
    const reply = await submit(service.url, { mode: 'sync', file: await openAsBlob(file), attributes: { file_name: 'over.bin' } });
    expect(reply.status).toBe(413);
    const body = errorBodySchema.parse(reply.body);
    expect(body.code).toBe('file_too_large');
    expect(body.message).toContain('10 MB');
    await expectNothingKept();
  });

  it('takes 10 MB + 1 byte asynchronously', async () => {
    const file = await fileOfSize('sync-over-async.bin', MAX_SYNC_FILE_SIZE + 1);
    const reply = await submit(service.url, { file: await openAsBlob(file), attributes: { file_name: 'over.bin' } });
    expect(reply.status).toBe(202);
  });
});

describe('async limit: 100 MB', () => {
  it('accepts exactly 100 MB and scans it', async () => {
    const file = await fileOfSize('async-exact.bin', MAX_ASYNC_FILE_SIZE);
    const reply = await submit(service.url, { file: await openAsBlob(file), attributes: { file_name: 'big.bin' } });
    expect(reply.status).toBe(202);
    const submission = asyncSubmissionSchema.parse(reply.body);
    expect(submission.file_size).toBe(104_857_600);
    expect(terminalScanSchema.parse((await waitForTerminal(service.url, submission.id)).body).status).toBe('completed');
  });

  it('rejects 100 MB + 1 byte with 413 naming the limit, in German too', async () => {
    const file = await fileOfSize('async-over.bin', MAX_ASYNC_FILE_SIZE + 1);
    const reply = await submit(service.url, { file: await openAsBlob(file), attributes: { file_name: 'huge.bin' }, language: 'de' });
    expect(reply.status).toBe(413);
    const body = errorBodySchema.parse(reply.body);
    expect(body.code).toBe('file_too_large');
    expect(body.message).toContain('100 MB');
    expect(body.message).toContain('Datei');
    await expectNothingKept();
    // Still serving.
    expect((await submit(service.url, { mode: 'sync' })).status).toBe(200);
  });
});

describe('declared sizes', () => {
  it('refuses a Content-Length far over the limit before the body, without 100 Continue', async () => {
    const socket = connect(service.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /file-scans HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test-key-alpha-0001\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${200 * MB}\r\nExpect: 100-continue\r\n\r\n`,
    );
    // The service answers and closes the connection; no body byte was sent.
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain('100 Continue');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('"code":"file_too_large"');
  });
});

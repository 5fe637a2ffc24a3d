// Issue 18: one authenticated multipart request whose file part had no usable
// name ended the whole service (a throw inside a busboy event). These inputs
// are kept as regression cases, against the real `npm run service` process (a
// crash there ends the process, which the test sees) in both modes. Requests
// that Node's HTTP parser refuses before the service sees them get the
// documented JSON error body, each with a code of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/service-contract/errors.ts';
import { rawRequest, type RawResponse } from '../../support/raw-http.ts';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.ts';
import { KEY_A, startTestService, submit, type TestService } from '../local-service/harness.ts';
import { expectErrorReply } from './attack-kit.ts';

const KEY = 'fuzz-regression-key-0001';

/** The crash inputs from the issue, byte for byte apart from the key: each a whole request. */
export const NAMELESS_FILE_PARTS: ReadonlyArray<[label: string, disposition: string, contentType?: string]> = [
  ['no name parameter', 'form-data; filename="x.txt"'],
  ['an empty name', 'form-data; name=""; filename="x.txt"'],
  ['only name*= (RFC 5987 form, not defined for form-data names)', "form-data; name*=UTF-8''file; filename=\"x.txt\""],
  ['a bare form-data sent as application/octet-stream', 'form-data', 'application/octet-stream'],
];

function namelessRequest(port: number, path: string, disposition: string, contentType?: string): Promise<RawResponse> {
  const body = `--b\r\nContent-Disposition: ${disposition}\r\n${contentType ? `Content-Type: ${contentType}\r\n` : ''}\r\nhi\r\n--b--\r\n`;
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
    `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  return rawRequest(port, head, body, { timeoutMs: 10_000 });
}

describe('a file part without a usable name (the crash of issue 18), against `npm run service`', () => {
  let dataDir: string;
  let service: ServiceProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-parser-answers-'));
    service = await startServiceProcess({ apiKeys: [KEY], dataDir });
  });
  afterAll(async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const path of ['/file-scans', '/file-scans/sync']) {
    it.each(NAMELESS_FILE_PARTS)(`${path}, %s: 400 invalid_request that says the part has no name; the service lives`, async (_label, disposition, contentType) => {
      const reply = await namelessRequest(service.port, path, disposition, contentType);
      expect(expectErrorReply(reply, 400, 'invalid_request')).toMatch(/no name/);
      // Still the same process, still answering.
      const after = await submit(service.url, { key: KEY, mode: 'sync', attributes: { file_name: 'after.txt' } });
      expect(after.status).toBe(200);
    });
  }

  it('an attributes part sent as a file and cut off by the end of the body (found by the fuzzer): 400, the service lives', async () => {
    const body = '--b\r\nContent-Disposition: form-data; name="attributes"; filename="a.json"\r\n\r\n{"file_name":"a"';
    const head =
      `POST /file-scans/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
      `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    expectErrorReply(await rawRequest(service.port, head, body), 400, 'invalid_request');
    expect((await submit(service.url, { key: KEY, mode: 'sync', attributes: { file_name: 'after.txt' } })).status).toBe(200);
  });

  it('the German answer names the problem in German', async () => {
    const body = '--b\r\nContent-Disposition: form-data; filename="x.txt"\r\n\r\nhi\r\n--b--\r\n';
    const head =
      `POST /file-scans HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Language: de\r\n` +
      `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    expect(expectErrorReply(await rawRequest(service.port, head, body), 400, 'invalid_request')).toMatch(/keinen Namen/);
  });

  it('the process never exited', async () => {
    const exited = await Promise.race([service.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 50))]);
    expect(exited).toBe(false);
    expect(service.output()).not.toMatch(/Uncaught|TypeError/);
  });
});

describe("answers of Node's HTTP layer carry the documented JSON error body", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ headersTimeoutMs: 300 });
  });
  afterAll(() => service.close());

  const send = (head: string, body = '') => rawRequest(service.port, head, body, { timeoutMs: 10_000 });
  const auth = `Authorization: Bearer ${KEY_A}\r\n`;

  it('a malformed request line: 400 invalid_request', async () => {
    expect(expectErrorReply(await send('GARBAGE\r\n\r\n'), 400, 'invalid_request')).toMatch(/not valid HTTP/);
  });

  it('a control byte in a header: 400 invalid_request', async () => {
    expectErrorReply(await send(`GET /file-scans/x HTTP/1.1\r\nHost: a\r\nX-Bad: a\u0001b\r\n\r\n`), 400, 'invalid_request');
  });

  it('Content-Length: -1: 400 invalid_request', async () => {
    expectErrorReply(await send(`POST /file-scans HTTP/1.1\r\nHost: a\r\n${auth}Content-Length: -1\r\n\r\n`), 400, 'invalid_request');
  });

  it('a bad chunk size: 400 invalid_request', async () => {
    const head = `POST /file-scans HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n`;
    expectErrorReply(await send(head, 'zz\r\nhello\r\n0\r\n\r\n'), 400, 'invalid_request');
  });

  it('headers over the parser\'s bound: 431 headers_too_large', async () => {
    const reply = await send(`GET /file-scans/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`);
    expect(expectErrorReply(reply, 431, 'headers_too_large')).toMatch(/\d+ KiB/);
  });

  it('a chunk extension over 16 KiB: 413 request_too_large, not file_too_large', async () => {
    const head = `POST /file-scans HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n`;
    expectErrorReply(await send(head, `5;ext=${'e'.repeat(20 * 1024)}\r\nhello\r\n0\r\n\r\n`), 413, 'request_too_large');
  });

  it('an Expect other than 100-continue: 417 expectation_failed in the caller’s language', async () => {
    const reply = await send(`GET /file-scans/x HTTP/1.1\r\nHost: a\r\nContent-Language: de\r\nExpect: something-else\r\n\r\n`);
    expect(expectErrorReply(reply, 417, 'expectation_failed')).toMatch(/unterstützt/);
  });

  it('headers that never finish: 408 request_timeout, never sync_scan_timeout, and no file_scan_id', async () => {
    const reply = await send(`GET /file-scans/x HTTP/1.1\r\nHost: a\r\n`);
    expectErrorReply(reply, 408, 'request_timeout');
    expect(reply.json()).not.toHaveProperty('file_scan_id');
  });

  it('every new code has its status in the contract', () => {
    expect([ERROR_CODES.request_timeout, ERROR_CODES.headers_too_large, ERROR_CODES.request_too_large, ERROR_CODES.expectation_failed]).toEqual([408, 431, 413, 417]);
  });

  it('the service still scans afterwards', async () => {
    expect((await submit(service.url, { mode: 'sync', attributes: { file_name: 'after.txt' } })).status).toBe(200);
  });
});

// What a well-behaved client never sends, over bare sockets (schemathesis found
// the first ones): no Host, another HTTP version, CONNECT, TRACE, a body slower
// than the request timeout. Node's HTTP layer used to answer these itself with
// an empty body, or not at all; each now gets the documented JSON error body,
// and every answer is checked against openapi.yaml.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../shared/service-contract/errors.ts';
import { rawExchange, rawRequest, type RawBody, type RawResponse } from '../../support/raw-http.ts';
import { KEY_A, getByReference, startTestService, submit, waitFor, type TestService } from './harness.ts';
import { expectDeclared } from './openapi-contract.ts';

const REQUEST_TIMEOUT_MS = 1500;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ headersTimeoutMs: 300, requestTimeoutMs: REQUEST_TIMEOUT_MS });
});
afterAll(() => service.close());

const auth = `Authorization: Bearer ${KEY_A}\r\n`;

/** Sends `head` (and `body`); the answer must be in the OpenAPI document, with this status and code. Returns it. */
async function answer(head: string, status: number, code: string, body?: RawBody): Promise<RawResponse> {
  const reply = await rawRequest(service.port, head, body, { timeoutMs: 10_000 });
  const [method = '', target = ''] = head.split(' ');
  expectDeclared({ method, target, status: reply.status, headers: reply.headers, body: reply.body });
  expect(reply.status, reply.body).toBe(status);
  expect(errorBodySchema.parse(reply.json()).code).toBe(code);
  return reply;
}

const message = (reply: RawResponse) => errorBodySchema.parse(reply.json()).message;

describe('the Host header (RFC 9112 3.2)', () => {
  it('a POST without Host: 400 invalid_request with the JSON body, not Node’s empty one', async () => {
    const reply = await answer(`POST /file-scans HTTP/1.1\r\n${auth}Content-Length: 0\r\n\r\n`, 400, 'invalid_request');
    expect(message(reply)).toMatch(/Host/);
    expect(reply.headers['content-language']).toBe('en');
    expect(reply.headers.connection).toBe('close');
  });

  it('says so in German when asked', async () => {
    const reply = await answer(`GET /file-scans/x HTTP/1.1\r\n${auth}Content-Language: de\r\n\r\n`, 400, 'invalid_request');
    expect(message(reply)).toMatch(/Host-Header/);
    expect(reply.headers['content-language']).toBe('de');
  });

  it.each([
    ['two Host headers', 'Host: a\r\nHost: b\r\n'],
    ['a Host value that is no host', 'Host: a b/c\r\n'],
  ])('%s: 400 invalid_request', async (_label, hosts) => {
    await answer(`GET /file-scans/x HTTP/1.1\r\n${hosts}${auth}\r\n`, 400, 'invalid_request');
  });

  it('comes before an unknown Expect, as Node’s own check did', async () => {
    await answer(`GET /file-scans/x HTTP/1.1\r\n${auth}Expect: something\r\n\r\n`, 400, 'invalid_request');
  });

  it('is not required of HTTP/1.0, and an empty or IPv6 Host is valid', async () => {
    await answer(`GET /file-scans/x HTTP/1.0\r\n${auth}\r\n`, 404, 'not_found');
    await answer(`GET /file-scans/x HTTP/1.1\r\nHost:\r\n${auth}\r\n`, 404, 'not_found');
    await answer(`GET /file-scans/x HTTP/1.1\r\nHost: [::1]:8080\r\n${auth}\r\n`, 404, 'not_found');
  });
});

describe('methods the service does not serve, sent raw', () => {
  it('TRACE /file-scans: 405 with Allow: POST', async () => {
    const reply = await answer(`TRACE /file-scans HTTP/1.1\r\nHost: a\r\n${auth}\r\n`, 405, 'method_not_allowed');
    expect(reply.headers.allow).toBe('POST');
  });

  it('CONNECT, which Node answered by closing the connection: 405 on a known path, else 404, after authentication', async () => {
    const known = await answer(`CONNECT /file-scans HTTP/1.1\r\nHost: a\r\n${auth}\r\n`, 405, 'method_not_allowed');
    expect(known.headers.allow).toBe('POST');
    expect(known.headers.connection).toBe('close');
    await answer(`CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n${auth}\r\n`, 404, 'not_found');
    await answer(`CONNECT /file-scans HTTP/1.1\r\nHost: a\r\n\r\n`, 401, 'unauthorized');
  });

  it('CONNECT pipelined behind a GET (found by the socket fuzzer: it ended the service): both answered, in order', async () => {
    const payload = `GET /file-scans/x HTTP/1.1\r\nHost: a\r\n${auth}\r\nCONNECT /file-scans HTTP/1.1\r\nHost: a\r\n${auth}\r\n`;
    const replies = await rawExchange(service.port, Buffer.from(payload), 2);
    expect(replies.map((reply) => reply.status)).toEqual([404, 405]);
    expectDeclared({ method: 'CONNECT', target: '/file-scans', status: 405, headers: replies[1]?.headers ?? {}, body: replies[1]?.body ?? '' });
  });
});

describe('HTTP versions other than 1.1 and 1.0: 505 http_version_not_supported', () => {
  it.each([
    ['HTTP/2.0, which Node handed to the service as a request', 'GET /file-scans/x HTTP/2.0\r\nHost: a\r\n' + auth + '\r\n'],
    ['HTTP/0.9 (no version at all)', 'GET /file-scans/x\r\n\r\n'],
    ['HTTP/9.9, which Node refused as 400', 'GET /file-scans/x HTTP/9.9\r\nHost: a\r\n\r\n'],
    ["HTTP/2's connection preface", 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ])('%s', async (_label, head) => {
    expect(message(await answer(head, 505, 'http_version_not_supported'))).toMatch(/HTTP\/1\.1/);
  });
});

describe('a body slower than the request timeout', () => {
  it('gets 408 request_timeout in the request’s language, naming that timeout, and no scan is made of it', async () => {
    const reference = `http-layer/slow-body-${process.pid}`;
    const attributes = `--b\r\nContent-Disposition: form-data; name="attributes"\r\n\r\n{"file_name":"a.txt","external_reference_id":"${reference}"}\r\n`;
    const fileStart = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nfirst half, ';
    const rest = 'second half\r\n--b--\r\n';
    const head =
      `POST /file-scans HTTP/1.1\r\nHost: a\r\n${auth}Content-Language: de\r\nContent-Type: multipart/form-data; boundary=b\r\n` +
      `Content-Length: ${Buffer.byteLength(attributes + fileStart + rest)}\r\n\r\n`;
    const reply = await rawRequest(service.port, head, attributes + fileStart, { timeoutMs: 10_000, keepOpen: true });
    expectDeclared({ method: 'POST', target: '/file-scans', status: reply.status, headers: reply.headers, body: reply.body });
    expect(reply.status, reply.body).toBe(408);
    expect(reply.json()).toMatchObject({ code: 'request_timeout' });
    expect(reply.json()).not.toHaveProperty('file_scan_id');
    expect(message(reply)).toContain(`${Math.round(REQUEST_TIMEOUT_MS / 1000)} Sekunden`);
    // The rest arriving late must not turn into a scan: the service has said nothing was scanned.
    reply.socket.on('error', () => {});
    reply.socket.write(rest);
    await waitFor(async () => (await readdir(join(service.dataDir, 'incoming'))).length === 0, 'the partial upload to be removed');
    reply.socket.destroy();
    expect((await getByReference(service.url, reference)).status).toBe(404);
  });
});

it('the service still scans afterwards', async () => {
  expect((await submit(service.url, { mode: 'sync', attributes: { file_name: 'after.txt' } })).status).toBe(200);
});

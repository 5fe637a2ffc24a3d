// The local service under attack (issue 7): it listens on loopback, but any
// local program can reach it. Hostile requests go over bare sockets where an
// HTTP client would refuse to send them. Each gets the documented error, the
// service keeps serving (a normal scan succeeds afterwards), nothing is left in
// incoming/, and nothing is written outside the data dir.
import { randomBytes, randomUUID } from 'node:crypto';
import { access, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncSubmissionSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { KEY_A, KEY_B, getByReference, getScan, startTestService, submit, waitFor, type TestService } from '../local-service/harness.ts';
import { rawExchange, rawRequest, repeatedBytes, requestHead } from '../../support/raw-http.ts';
import {
  BOUNDARY,
  MULTIPART,
  SERVICE_DATA_ENTRY,
  attributesPart,
  body,
  expectErrorReply,
  filePart,
  listTree,
  part,
  rawPost,
} from './attack-kit.ts';

let service: TestService;
const post = (payload: Parameters<typeof rawPost>[1], options: Parameters<typeof rawPost>[2] = {}) => rawPost(service.port, payload, options, KEY_A);

/** The service still does its job, and left nothing half-received behind. */
async function expectStillServing(): Promise<void> {
  const reply = await submit(service.url, { mode: 'sync', attributes: { file_name: 'after-attack.txt' } });
  expect(reply.status).toBe(200);
  expect(terminalScanSchema.parse(reply.body).status).toBe('completed');
  await waitFor(async () => (await readdir(join(service.dataDir, 'incoming'))).length === 0, 'incoming/ to be empty', 10_000);
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('malformed multipart', () => {
  it('multipart without a boundary: 400 invalid_request', async () => {
    const message = expectErrorReply(await post(body(filePart(), attributesPart('{"file_name":"a"}')), { contentType: 'multipart/form-data' }), 400, 'invalid_request');
    expect(message).toMatch(/boundary/);
    await expectStillServing();
  });

  it('a boundary in the header that the body never uses: 400 invalid_request', async () => {
    expectErrorReply(await post(body(filePart(), attributesPart('{"file_name":"a"}')), { contentType: 'multipart/form-data; boundary=something-else' }), 400, 'invalid_request');
    await expectStillServing();
  });

  it('a file part that never ends (complete request, no closing boundary): 400, the partial file removed', async () => {
    const unterminated = Buffer.concat([attributesPart('{"file_name":"a"}'), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`), randomBytes(1024 * 1024)]);
    const message = expectErrorReply(await post(unterminated), 400, 'invalid_request');
    expect(message).toMatch(/malformed/);
    await expectStillServing();
  });

  it('the same, sent chunked', async () => {
    const pieces = [attributesPart('{"file_name":"a"}'), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`), randomBytes(512 * 1024)];
    expectErrorReply(await post(pieces), 400, 'invalid_request');
    await expectStillServing();
  });

  it('a part header that never ends: 400', async () => {
    const cut = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\nContent-Type: appl`);
    expectErrorReply(await post(cut), 400, 'invalid_request');
    await expectStillServing();
  });

  it('a client that declares 10 MB, sends 1 MB and hangs up: no answer needed, nothing kept', async () => {
    const head = requestHead('POST', '/file-scans', {
      Host: 'x',
      Authorization: `Bearer ${KEY_A}`,
      'Content-Type': MULTIPART,
      'Content-Length': 10 * 1024 * 1024,
    });
    const reply = await rawRequest(service.port, head, [filePart(randomBytes(1024 * 1024)).subarray(0, 1024 * 1024)], { timeoutMs: 1_000 });
    // The server waits for the rest; the client gives up after 1 s and closes the socket.
    expect(reply.status).toBe(0);
    await expectStillServing();
  });

  it('10,000 parts: 400 invalid_request (too many parts), without reading them all into memory', async () => {
    const parts = Array.from({ length: 10_000 }, (_, i) => part(`Content-Disposition: form-data; name="field${i}"`, `value ${i}`));
    const message = expectErrorReply(await post(body(filePart(), attributesPart('{"file_name":"a"}'), ...parts)), 400, 'invalid_request');
    expect(message).toMatch(/too many parts/);
    await expectStillServing();
  });

  it('10,000 file parts: 400', async () => {
    const parts = Array.from({ length: 10_000 }, (_, i) => filePart(`content ${i}`, `f${i}.bin`));
    expectErrorReply(await post(body(attributesPart('{"file_name":"a"}'), ...parts)), 400, 'invalid_request');
    await expectStillServing();
  });

  it('a 1 MB part header line: 400 malformed', async () => {
    const huge = part(`Content-Disposition: form-data; name="file"; filename="${'a'.repeat(1024 * 1024)}"`, 'x');
    const message = expectErrorReply(await post(body(huge, attributesPart('{"file_name":"a"}'))), 400, 'invalid_request');
    expect(message).toMatch(/malformed/);
    await expectStillServing();
  });

  it('5,000 header lines in one part: 400', async () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `X-Header-${i}: ${i}`).join('\r\n');
    expectErrorReply(await post(body(part(`Content-Disposition: form-data; name="file"; filename="a"\r\n${lines}`, 'x'), attributesPart('{}'))), 400, 'invalid_request');
    await expectStillServing();
  });

  it('a 100 KB request header line: refused by the HTTP parser (431), connection closed, service unharmed', async () => {
    const head = requestHead('GET', '/file-scans/x', { Host: 'x', Authorization: `Bearer ${KEY_A}`, 'X-Padding': 'p'.repeat(100 * 1024) });
    const reply = await rawRequest(service.port, head, undefined, { timeoutMs: 10_000 });
    // Node's parser refuses it before our handler runs; the clientError listener answers (service-parser-answers.test.ts checks the body).
    expect(reply.status).toBe(431);
    await expectStillServing();
  });

  it('binary garbage as a multipart body: 400', async () => {
    expectErrorReply(await post(randomBytes(256 * 1024)), 400, 'invalid_request');
    await expectStillServing();
  });

  it('a body that is not HTTP at all on the socket: the connection is dropped, nothing else', async () => {
    const reply = await rawRequest(service.port, randomBytes(4096), undefined, { timeoutMs: 10_000 });
    expect([0, 400]).toContain(reply.status);
    await expectStillServing();
  });
});

describe('attributes that are not JSON or are deeply nested', () => {
  const withAttributes = (json: string) => post(body(filePart(), attributesPart(json)));

  it.each([
    ['empty', ''],
    ['null', 'null'],
    ['a number', '42'],
    ['cut off', '{"file_name": "a'],
    ['a byte-order mark first', '\ufeff{"file_name":"a"}'],
    ['brackets closed before opened', ']]]]{"file_name":"a"}'],
  ])('%s: 400 invalid_request', async (_label, json) => {
    expectErrorReply(await withAttributes(json), 400, 'invalid_request');
  });

  it('100,000 nested arrays (200 KB): 400 (larger than 64 KB), never parsed', async () => {
    const message = expectErrorReply(await withAttributes(`{"file_name":"a","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`), 400, 'invalid_request');
    expect(message).toMatch(/larger than 65536 bytes/);
    await expectStillServing();
  });

  it('100,000 nested arrays sent as an attributes file part: 400', async () => {
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const reply = await post(body(filePart(), part('Content-Disposition: form-data; name="attributes"; filename="a.json"\r\nContent-Type: application/json', nested)));
    expectErrorReply(reply, 400, 'invalid_request');
    await expectStillServing();
  });

  it('30,000 nested arrays within 64 KB: 400 (nested deeper than 8), checked before JSON.parse', async () => {
    const message = expectErrorReply(await withAttributes(`{"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}`), 400, 'invalid_request');
    expect(message).toMatch(/nested deeper than 8/);
    // Unbalanced on purpose: a parser would fail anyway, the depth check answers first.
    expect(expectErrorReply(await withAttributes(`{"x":${'{"a":'.repeat(10_000)}`), 400, 'invalid_request')).toMatch(/nested deeper/);
    await expectStillServing();
  });

  it('invalid UTF-8 is decoded with replacement characters: no crash, no raw bytes stored', async () => {
    const raw = Buffer.concat([Buffer.from('{"file_name":"bad'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('.txt"}')]);
    const reply = await post(body(filePart(), part('Content-Disposition: form-data; name="attributes"', raw)));
    expect(reply.status).toBe(202);
    expect(asyncSubmissionSchema.parse(reply.json()).file_name).toBe('bad\ufffd\ufffd\ufffd.txt');
  });

  it('brackets inside strings do not count as nesting', async () => {
    const reply = await withAttributes(JSON.stringify({ file_name: `${'['.repeat(100)}.txt`, note: '{'.repeat(1000) }));
    expect(reply.status).toBe(202);
    expect(asyncSubmissionSchema.parse(reply.json()).file_name).toBe(`${'['.repeat(100)}.txt`);
  });
});

describe('file names: path traversal and control characters', () => {
  const marker = `verdict-traversal-${randomUUID()}`;

  it.each<[string, { attributes?: string; partName?: string }, string | null]>([
    ['../ in file_name', { attributes: `../../../../../../tmp/${marker}` }, marker],
    ['..\\ in file_name', { attributes: `..\\..\\..\\${marker}` }, marker],
    ['an absolute path', { attributes: `/tmp/${marker}` }, marker],
    ['a Windows drive path', { attributes: `C:\\Windows\\System32\\${marker}` }, marker],
    ['a NUL in the middle', { attributes: `${marker}\u0000.exe` }, `${marker}.exe`],
    ['CR LF and a header after it', { attributes: `${marker}\r\nX-Injected: yes` }, `${marker}X-Injected: yes`],
    ['a right-to-left override', { attributes: `invoice\u202Efdp.exe` }, 'invoicefdp.exe'],
    ['C1 controls and DEL', { attributes: `a\u0085b\u009bc\u007fd` }, 'abcd'],
    ['percent escapes (kept literally, never decoded)', { attributes: `%2e%2e%2f${marker}` }, `%2e%2e%2f${marker}`],
    ['only dots', { attributes: '..' }, null],
    ['only a path', { attributes: '../../' }, null],
    ['only control characters', { attributes: '\u0001\u0002\u0003' }, null],
    ['256 characters', { attributes: 'n'.repeat(256) }, null],
    ['255 emoji (255 characters, 1020 bytes)', { attributes: '😀'.repeat(255) }, '😀'.repeat(255)],
    ['../ in the multipart filename', { partName: `../../../tmp/${marker}` }, marker],
    ['an encoded traversal in filename*', { partName: `*=UTF-8''..%2F..%2F${marker}%0A%E2%80%AE` }, marker],
  ])('%s', async (_label, { attributes, partName }, expected) => {
    const disposition =
      partName === undefined
        ? 'form-data; name="file"; filename="plain.bin"'
        : partName.startsWith('*=')
          ? `form-data; name="file"; filename${partName}`
          : `form-data; name="file"; filename="${partName}"`;
    const attributesJson = attributes === undefined ? '{}' : JSON.stringify({ file_name: attributes });
    const reply = await post(body(part(`Content-Disposition: ${disposition}\r\nContent-Type: application/octet-stream`, 'x'), attributesPart(attributesJson)));
    expect(reply.headers['x-injected']).toBeUndefined();
    if (expected === null) {
      expectErrorReply(reply, 400, 'invalid_request');
      return;
    }
    expect(reply.status, reply.body).toBe(202);
    const submission = asyncSubmissionSchema.parse(reply.json());
    expect(submission.file_name).toBe(expected);
    // Echoed the same way by GET, and without any path or control character.
    const scan = await getScan(service.url, submission.id);
    expect(scan.body.file_name).toBe(expected);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(expected).not.toMatch(/[/\\\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('wrote nothing outside the data dir, and only its own files inside it', async () => {
    // The scratch dir holds the data dir and nothing else was created next to it.
    expect(await readdir(service.scratch)).toEqual(['data']);
    for (const place of [join(tmpdir(), marker), join('/tmp', marker), join('/', marker), join(service.dataDir, '..', marker)]) {
      await expect(access(place)).rejects.toThrow();
    }
    await waitFor(async () => (await readdir(join(service.dataDir, 'uploads'))).length === 0, 'uploads to be scanned and removed');
    const entries = await listTree(service.dataDir);
    expect(entries.filter((entry) => !SERVICE_DATA_ENTRY.test(entry))).toEqual([]);
  });
});

describe('wrong or missing bearer keys', () => {
  const get = (authorization: string | Buffer | null) => {
    const head = Buffer.concat([
      Buffer.from('GET /file-scans/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n'),
      authorization === null ? Buffer.alloc(0) : Buffer.concat([Buffer.from('Authorization: '), Buffer.isBuffer(authorization) ? authorization : Buffer.from(authorization), Buffer.from('\r\n')]),
      Buffer.from('\r\n'),
    ]);
    return rawRequest(service.port, head, undefined, { timeoutMs: 10_000 });
  };

  it.each<[string, string | Buffer | null]>([
    ['no header', null],
    ['an empty header', ''],
    ['Basic instead of Bearer', `Basic ${Buffer.from(`user:${KEY_A}`).toString('base64')}`],
    ['Bearer without a key', 'Bearer'],
    ['Bearer and spaces', 'Bearer    '],
    ['the key without a scheme', KEY_A],
    ['the key plus a second word', `Bearer ${KEY_A} ${KEY_A}`],
    ['the key missing its last character', `Bearer ${KEY_A.slice(0, -1)}`],
    ['the key with one more character', `Bearer ${KEY_A}x`],
    ['the key in upper case', `Bearer ${KEY_A.toUpperCase()}`],
    ['an 8 KB key', `Bearer ${'k'.repeat(8 * 1024)}`],
    ['non-ASCII bytes (Latin-1)', Buffer.concat([Buffer.from('Bearer '), Buffer.from([0xe9, 0xe8, 0xff, 0xfe]), Buffer.from('-key-0001')])],
    ['UTF-8 bytes', Buffer.from('Bearer schlüssel-ключ-🔑-0001', 'utf8')],
  ])('%s: 401 unauthorized with WWW-Authenticate, the key never echoed', async (_label, authorization) => {
    const reply = await get(authorization);
    expectErrorReply(reply, 401, 'unauthorized');
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer realm="verdict-local-service"/);
    expect(reply.body).not.toContain(KEY_A.slice(0, 8));
  });

  it('a header with a control character is refused by the HTTP parser (400), and the service carries on', async () => {
    const reply = await get(Buffer.from(`Bearer ${KEY_A}\u0001`));
    expect(reply.status).toBe(400);
    await expectStillServing();
  });

  it('the scheme is case-insensitive and the right key gets in (here: 404 for an unknown scan)', async () => {
    expectErrorReply(await get(`bearer ${KEY_A}`), 404, 'not_found');
  });

  it('guessing keys is throttled: unauthenticated callers share one bucket, real integrations keep theirs', async () => {
    const limited = await startTestService({ rateLimit: { requestsPerSecond: 0.5, burst: 5 } });
    try {
      const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => getScan(limited.url, 'x', { key: `guess-${i}-0000000` })));
      const statuses = guesses.map((reply) => reply.status);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(6);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(34);
      const limitedReply = guesses.find((reply) => reply.status === 429);
      expect(Number(limitedReply?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limitedReply?.body.code).toBe('rate_limited');
      // The real integration is unaffected by the guessing.
      expect((await getScan(limited.url, 'x', { key: KEY_A })).status).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

describe("another integration's scans", () => {
  it('are 404 for every way of asking, and never show the other scan', async () => {
    const reference = `attack/other-integration:${randomUUID()}`;
    const mine = terminalScanSchema.parse(
      (await submit(service.url, { key: KEY_A, mode: 'sync', attributes: { file_name: 'secret-plans-of-a.txt', external_reference_id: reference } })).body,
    );
    const paths = [
      `/file-scans/${mine.id}`,
      `/file-scans/${mine.id.toUpperCase()}`,
      `/file-scans/${mine.id}/`,
      `/file-scans/${encodeURIComponent(mine.id)}?x=1`,
      `/file-scans/external-reference/${reference}`,
      `/file-scans/external-reference/${encodeURIComponent(reference)}`,
      `/file-scans/external-reference/${encodeURIComponent(encodeURIComponent(reference))}`,
      `/file-scans/../file-scans/${mine.id}`,
      `/file-scans/%2e%2e/file-scans/${mine.id}`,
      `//file-scans/${mine.id}`,
      `/file-scans/external-reference/${reference.toUpperCase()}`,
    ];
    for (const path of paths) {
      const reply = await rawRequest(service.port, requestHead('GET', path, { Host: 'x', Authorization: `Bearer ${KEY_B}`, Connection: 'close' }), undefined, { timeoutMs: 10_000 });
      expectErrorReply(reply, 404, 'not_found');
      expect(reply.body).not.toContain('secret-plans');
      expect(reply.body).not.toContain(mine.id);
    }
    // B may use the same reference in its own namespace; A's stays A's.
    expect((await submit(service.url, { key: KEY_B, attributes: { file_name: 'b.txt', external_reference_id: reference } })).status).toBe(202);
    expect((await getByReference(service.url, reference, { key: KEY_A })).body.id).toBe(mine.id);
    expect((await getByReference(service.url, reference, { key: KEY_B })).body.id).not.toBe(mine.id);
  });

  it('a GET with a body, or 200 GETs of random ids, changes nothing', async () => {
    const withBody = await rawRequest(
      service.port,
      requestHead('GET', `/file-scans/${randomUUID()}`, { Host: 'x', Authorization: `Bearer ${KEY_B}`, 'Content-Length': 1024 * 1024, Connection: 'close' }),
      randomBytes(1024 * 1024),
      { timeoutMs: 10_000 },
    );
    expectErrorReply(withBody, 404, 'not_found');
    const misses = await Promise.all(Array.from({ length: 200 }, () => getScan(service.url, randomUUID(), { key: KEY_B })));
    expect(new Set(misses.map((reply) => reply.status))).toEqual(new Set([404]));
    await expectStillServing();
  });
});

describe('request boundaries and declared sizes', () => {
  it('a rejected upload on a keep-alive connection is drained: the next request on it is answered correctly', async () => {
    const bad = body(filePart(), attributesPart('{"file_name": '));
    const first = Buffer.concat([
      Buffer.from(requestHead('POST', '/file-scans', { Host: 'x', Authorization: `Bearer ${KEY_A}`, 'Content-Type': MULTIPART, 'Content-Length': bad.length })),
      bad,
    ]);
    const second = Buffer.from(requestHead('GET', '/file-scans/00000000-0000-4000-8000-000000000000', { Host: 'x', Authorization: `Bearer ${KEY_A}` }));
    const answers = await rawExchange(service.port, Buffer.concat([first, second]), 2);
    expect(answers.map((a) => a.status)).toEqual([400, 404]);
    expect(answers[1]?.json()).toMatchObject({ code: 'not_found' });
  });

  it('Content-Length and Transfer-Encoding together (a smuggling attempt): refused by the HTTP parser, service unharmed', async () => {
    const head = requestHead('POST', '/file-scans', {
      Host: 'x',
      Authorization: `Bearer ${KEY_A}`,
      'Content-Type': MULTIPART,
      'Content-Length': 4,
      'Transfer-Encoding': 'chunked',
    });
    const reply = await rawRequest(service.port, head, `0\r\n\r\nGET /file-scans/x HTTP/1.1\r\nHost: x\r\n\r\n`, { timeoutMs: 10_000 });
    expect([0, 400]).toContain(reply.status);
    await expectStillServing();
  });

  it('a declared 10 GB body is refused with 413 before any of it is read', async () => {
    const head = requestHead('POST', '/file-scans', { Host: 'x', Authorization: `Bearer ${KEY_A}`, 'Content-Type': MULTIPART, 'Content-Length': 10 * 1024 ** 3 });
    // Nothing but the head is sent: the answer must come anyway.
    const reply = await rawRequest(service.port, head, undefined, { timeoutMs: 10_000 });
    expect(expectErrorReply(reply, 413, 'file_too_large')).toMatch(/100 MB/);
    await expectStillServing();
  });

  it('a chunked sync upload (no declared length) past 10 MB: 413 while streaming, the partial file removed', async () => {
    const stream = (function* () {
      yield attributesPart('{"file_name":"big.bin"}');
      yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
      yield* repeatedBytes(12 * 1024 * 1024);
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    })();
    expect(expectErrorReply(await post(stream, { path: '/file-scans/sync' }), 413, 'file_too_large')).toMatch(/10 MB/);
    await expectStillServing();
  });

  it('50 uploads abandoned halfway at the same time: every partial file is removed', async () => {
    const head = requestHead('POST', '/file-scans', { Host: 'x', Authorization: `Bearer ${KEY_A}`, 'Content-Type': MULTIPART, 'Content-Length': 50 * 1024 * 1024 });
    const partial = Buffer.concat([attributesPart('{"file_name":"a"}'), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`), randomBytes(256 * 1024)]);
    await Promise.all(Array.from({ length: 50 }, () => rawRequest(service.port, head, partial, { timeoutMs: 1_500 })));
    await expectStillServing();
  });

  it('malformed percent escapes and over-long ids in the path: 404', async () => {
    for (const path of ['/file-scans/%ZZ', '/file-scans/%', `/file-scans/${'a'.repeat(5000)}`, '/file-scans/external-reference/%E0%A4%A', '/file-scans/external-reference/']) {
      const reply = await rawRequest(service.port, requestHead('GET', path, { Host: 'x', Authorization: `Bearer ${KEY_A}`, Connection: 'close' }), undefined, { timeoutMs: 10_000 });
      expectErrorReply(reply, 404, 'not_found');
    }
  });
});

describe('every answer above left the data dir clean', () => {
  it('no partial uploads, no stray files', async () => {
    await waitFor(async () => (await readdir(join(service.dataDir, 'uploads'))).length === 0, 'uploads to drain');
    expect(await readdir(join(service.dataDir, 'incoming'))).toEqual([]);
    expect((await listTree(service.dataDir)).filter((entry) => !SERVICE_DATA_ENTRY.test(entry))).toEqual([]);
  });
});

// The conformance suite, part two: malformed submissions, the parts a
// submission may carry besides `file` and `attributes`, and the transport
// (a client gone mid-upload, curl). Every answer is checked against openapi.yaml.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncSubmissionSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { SMALL_UPLOAD_BYTES } from '../../../electron/local-service/upload/receive-submission.ts';
import { expectError } from './conformance-kit.ts';
import { KEY_A, getByReference, send, startTestService, submit, waitFor, type Reply, type TestService } from './harness.ts';
import { checkRepliesAgainstOpenApi } from './openapi-contract.ts';

let service: TestService;
let url: string;

beforeAll(async () => {
  service = await startTestService();
  url = service.url;
  return checkRepliesAgainstOpenApi();
});
afterAll(() => service.close());

const boundary = 'verdict-test-boundary';
const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
const multipart = `multipart/form-data; boundary=${boundary}`;
const raw = (body: string | Buffer, contentType?: string, language?: string) =>
  send(`${url}/file-scans`, { method: 'POST', body, language, headers: contentType === undefined ? {} : { 'content-type': contentType } });

describe('malformed submissions (400 invalid_request) leave the service serving', () => {
  it.each<[string, () => Promise<Reply>]>([
    ['no content type', () => raw('hello')],
    ['not multipart', () => raw('{"a":1}', 'application/json')],
    ['multipart without boundary', () => raw('hello', 'multipart/form-data')],
    ['a body cut off before the closing boundary', () => raw(part('Content-Disposition: form-data; name="file"; filename="a"', 'abc'), multipart)],
    ['garbage instead of parts', () => raw(`--${boundary}\r\nthis is not a header line at all\r\n\r\n--${boundary}--\r\n`, multipart)],
    ['attributes that are not JSON', () => submit(url, { attributes: '{"file_name": ' })],
    ['attributes that are an array', () => submit(url, { attributes: '["a"]' })],
    ['attributes that are a string', () => submit(url, { attributes: '"a"' })],
    ['deeply nested attributes', () => submit(url, { attributes: `{"a":${'['.repeat(50)}${']'.repeat(50)}}` })],
    ['attributes over 64 KB', () => submit(url, { attributes: JSON.stringify({ file_name: 'a', pad: 'x'.repeat(70_000) }) })],
    ['a file_name that is not a string', () => submit(url, { attributes: { file_name: 7 } })],
    ['a file_name that is only a path', () => submit(url, { attributes: { file_name: '../' } })],
    ['a missing file part', () => submit(url, { noFile: true })],
    ['a missing attributes part', () => submit(url, { attributes: null })],
    [
      'a second file part',
      () =>
        raw(
          part('Content-Disposition: form-data; name="file"; filename="a"', 'one') +
            part('Content-Disposition: form-data; name="file"; filename="b"', 'two') +
            part('Content-Disposition: form-data; name="attributes"', '{}') +
            `--${boundary}--\r\n`,
          multipart,
        ),
    ],
    [
      'a file part sent as a plain field',
      () =>
        raw(
          part('Content-Disposition: form-data; name="file"', 'text') + part('Content-Disposition: form-data; name="attributes"', '{}') + `--${boundary}--\r\n`,
          multipart,
        ),
    ],
    [
      'an unexpected file part',
      () => raw(part('Content-Disposition: form-data; name="other"; filename="x"', 'x') + `--${boundary}--\r\n`, multipart),
    ],
    [
      'too many parts',
      () => raw(Array.from({ length: 12 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'v')).join('') + `--${boundary}--\r\n`, multipart),
    ],
    [
      'no file name anywhere',
      () =>
        raw(
          part('Content-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream', 'x') +
            part('Content-Disposition: form-data; name="attributes"', '{}') +
            `--${boundary}--\r\n`,
          multipart,
        ),
    ],
  ])('rejects %s', async (_label, call) => {
    expectError(await call(), 400, 'invalid_request');
    // Still serving, and nothing left behind in incoming/.
    expect((await submit(url, { mode: 'sync' })).status).toBe(200);
    expect(await readdir(join(service.dataDir, 'incoming'))).toEqual([]);
  });

  it('accepts attributes sent as a file part (curl -F attributes=@a.json)', async () => {
    const reply = await raw(
      part('Content-Disposition: form-data; name="file"; filename="a.txt"', 'abc') +
        part('Content-Disposition: form-data; name="attributes"; filename="a.json"\r\nContent-Type: application/json', '{"file_name":"named.txt"}') +
        `--${boundary}--\r\n`,
      multipart,
    );
    expect(reply.status).toBe(202);
    expect(asyncSubmissionSchema.parse(reply.body).file_name).toBe('named.txt');
  });
});

describe('parts besides "file" and "attributes"', () => {
  const valid = (reference: string) =>
    part('Content-Disposition: form-data; name="file"; filename="a.txt"', 'abc') +
    part('Content-Disposition: form-data; name="attributes"\r\nContent-Type: application/json', JSON.stringify({ file_name: 'a.txt', external_reference_id: reference }));
  let n = 0;
  const reference = (label: string) => `conformance/parts/${label}:${process.pid}-${++n}`;

  it('ignores a text field of another name (it carries no file)', async () => {
    const ref = reference('text');
    const reply = await raw(valid(ref) + part('Content-Disposition: form-data; name="comment"', 'a note') + `--${boundary}--\r\n`, multipart);
    expect(reply.status).toBe(202);
    expect(asyncSubmissionSchema.parse(reply.body).external_reference_id).toBe(ref);
  });

  it.each([
    ['with a filename', 'Content-Disposition: form-data; name="upload"; filename="b.exe"'],
    ['sent as application/octet-stream', 'Content-Disposition: form-data; name="upload"\r\nContent-Type: application/octet-stream'],
  ])('refuses a part of another name that carries a file (%s), naming it: no file goes unscanned', async (_label, disposition) => {
    const ref = reference('file');
    const body = valid(ref) + part(disposition, 'MZ second file') + `--${boundary}--\r\n`;
    const en = expectError(await raw(body, multipart), 400, 'invalid_request');
    expect(en).toContain('"upload"');
    expect(en).toMatch(/only the part named "file" is scanned/);
    expect(expectError(await raw(body, multipart, 'de'), 400, 'invalid_request')).toMatch(/„upload“.*gescannt wird nur der Teil „file“/);
    // Refused whole: no scan was made of the file that was sent as "file" either.
    expectError(await getByReference(url, ref), 404, 'not_found');
    expect(await readdir(join(service.dataDir, 'incoming'))).toEqual([]);
  });
});

describe('transport robustness', () => {
  it('cleans up after a client that disconnects mid-upload, and keeps serving', async () => {
    const socket = connect(service.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const boundary = 'cut-off';
    // Past the in-memory limit, so the partial upload goes to a temporary file.
    socket.write(
      `POST /file-scans HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY_A}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 10000000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n${'x'.repeat(SMALL_UPLOAD_BYTES + 100_000)}`,
    );
    await waitFor(async () => (await readdir(join(service.dataDir, 'incoming'))).length > 0, 'the upload to start');
    socket.destroy();
    await waitFor(async () => (await readdir(join(service.dataDir, 'incoming'))).length === 0, 'the partial upload to be removed');
    expect((await submit(url, { mode: 'sync' })).status).toBe(200);
  });

  it('works with curl -F, including Expect: 100-continue, and refuses a bad key before the body', async () => {
    const file = join(service.scratch, 'curl-upload.bin');
    await writeFile(file, randomBytes(2 * 1024 * 1024));
    // Asynchronously: the server under test lives in this process.
    const curl = async (key: string) =>
      (
        await promisify(execFile)(
          'curl',
          ['-sS', '-H', `Authorization: Bearer ${key}`, '-H', 'Expect: 100-continue', '-F', `file=@${file}`, '-F', 'attributes={"file_name":"c.bin"};type=application/json', '-w', '\n%{http_code}', `${url}/file-scans/sync`],
          { encoding: 'utf8' },
        )
      ).stdout;
    const [okBody, okStatus] = (await curl(KEY_A)).split('\n');
    expect(okStatus).toBe('200');
    expect(terminalScanSchema.parse(JSON.parse(okBody as string)).file_size).toBe(2 * 1024 * 1024);
    const [badBody, badStatus] = (await curl('wrong-key-000000')).split('\n');
    expect(badStatus).toBe('401');
    expect(JSON.parse(badBody as string).code).toBe('unauthorized');
  });
});

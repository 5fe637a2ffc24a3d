// Raw HTTP/1.1 exchanges for the socket fuzzer: requests built from parts a
// client controls (request line, headers, framing, body), damaged at the byte
// level and pipelined on one connection; and the answers read back, all of them.
import fc from 'fast-check';
import { hostileString, trickyString } from '../targets/support/strings.ts';
import { multipartBody, multipartInput, type MultipartInput } from '../targets/support/multipart.ts';

export type Framing = 'length' | 'chunked' | 'none' | 'length-short' | 'length-long' | 'length-twice' | 'length-negative' | 'length-and-chunked' | 'chunked-bad-size' | 'chunked-long-extension';

export interface RequestSpec {
  method: string;
  path: string;
  version: string;
  auth: 'valid' | 'none' | 'bad' | 'twice';
  headers: Array<[string, string]>;
  framing: Framing;
  body: { kind: 'none' } | { kind: 'multipart'; input: MultipartInput } | { kind: 'bytes'; text: string };
}

export interface ConnectionScript {
  requests: RequestSpec[];
  damage: Array<{ at: number; text: string }>;
  /** Where the payload is cut into separate writes (fractions). */
  cuts: number[];
  /**
   * sentinel: a last GET with `Connection: close` follows, and every answer is read;
   * half-close: the client ends its side after writing; abort: it resets midway.
   */
  ending: 'sentinel' | 'half-close' | 'abort';
}

const PATHS = ['/file-scans', '/file-scans/sync', '/file-scans/00000000-0000-0000-0000-000000000000', '/file-scans/external-reference/a%2Fb', '/file-scans/external-reference/', '/', '*', 'http://127.0.0.1/file-scans', '/file-scans?x=1#y', '/%', '/file-scans/%ZZ'];

const path = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('/file-scans/', '/file-scans/external-reference/'), hostileString(1030)).map(([prefix, rest]) => prefix + encodeURI(rest.replace(/[\ud800-\udfff]/g, ''))) },
  { weight: 1, arbitrary: trickyString(3) },
  { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 20_000 }).map((n) => `/file-scans/${'a'.repeat(n)}`) },
);

const header: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['Expect', '100-continue'], ['Expect', '100-Continue'], ['Expect', 'something-else'], ['Expect', ''],
    ['Transfer-Encoding', 'gzip, chunked'], ['Transfer-Encoding', 'identity'], ['Transfer-Encoding', 'chunked, chunked'],
    ['Connection', 'keep-alive'], ['Connection', 'close'], ['Connection', 'Upgrade'], ['Upgrade', 'websocket'],
    ['Content-Language', 'de'], ['Content-Language', 'xx-\u00ff'], ['Content-Type', 'application/json'], ['Host', ''],
    ['X-Control', 'a\u0001b'], ['X-Obs-Fold', 'a\r\n folded'], ['No colon', ''], ['X-Bare-CR', 'a\rb'],
  ),
  fc.integer({ min: 8_000, max: 18_000 }).map((n): [string, string] => ['X-Big', 'h'.repeat(n)]),
  fc.tuple(trickyString(2), trickyString(3)),
);

const spec: fc.Arbitrary<RequestSpec> = fc.record({
  method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'POST') }, fc.constantFrom('PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'PRI', 'get', 'G ET', ''), trickyString(1)),
  path,
  version: fc.oneof({ weight: 8, arbitrary: fc.constant('HTTP/1.1') }, fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'http/1.1', '', 'HTTP/1.1 x')),
  auth: fc.constantFrom('valid', 'valid', 'valid', 'none', 'bad', 'twice'),
  headers: fc.array(header, { maxLength: 3 }),
  framing: fc.oneof({ weight: 6, arbitrary: fc.constantFrom<Framing>('length', 'chunked') }, fc.constantFrom<Framing>('none', 'length-short', 'length-long', 'length-twice', 'length-negative', 'length-and-chunked', 'chunked-bad-size', 'chunked-long-extension')),
  body: fc.oneof(
    { weight: 5, arbitrary: multipartInput.map((input) => ({ kind: 'multipart' as const, input })) },
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ kind: 'bytes' as const, text })) },
  ),
});

export const connectionScript: fc.Arbitrary<ConnectionScript> = fc.record({
  requests: fc.array(spec, { minLength: 1, maxLength: 3 }),
  damage: fc.oneof({ weight: 3, arbitrary: fc.constant<ConnectionScript['damage']>([]) }, fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.oneof(fc.constantFrom('\r\n', '\n', '\r\n\r\n', ' ', '\0', ':', '0\r\n\r\n'), trickyString(2)) }), { minLength: 1, maxLength: 2 })),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
  ending: fc.constantFrom('sentinel', 'sentinel', 'sentinel', 'half-close', 'abort'),
});

export function requestBytes(request: RequestSpec, port: number, key: string): Buffer {
  let body: Buffer = Buffer.alloc(0);
  const lines: string[] = [`${request.method} ${request.path} ${request.version}`.trimEnd(), `Host: 127.0.0.1:${port}`];
  if (request.body.kind === 'multipart') {
    body = multipartBody(request.body.input);
    lines.push(`Content-Type: ${request.body.input.contentType.replaceAll('{b}', request.body.input.boundary)}`);
  } else if (request.body.kind === 'bytes') body = Buffer.from(request.body.text, 'latin1');
  if (request.auth === 'valid' || request.auth === 'twice') lines.push(`Authorization: Bearer ${key}`);
  if (request.auth === 'bad') lines.push('Authorization: Bearer not-the-key-0000');
  if (request.auth === 'twice') lines.push('Authorization: Bearer another-key-0000');
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const chunkedBody = (extension = '', size = body.length.toString(16)) =>
    body.length === 0 ? Buffer.from('0\r\n\r\n') : Buffer.concat([Buffer.from(`${size}${extension}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  switch (request.framing) {
    case 'length':
      lines.push(`Content-Length: ${body.length}`);
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      body = chunkedBody();
      break;
    case 'none':
      break;
    case 'length-short':
      lines.push(`Content-Length: ${Math.max(0, body.length - 7)}`);
      break;
    case 'length-long':
      lines.push(`Content-Length: ${body.length + 5}`);
      break;
    case 'length-twice':
      lines.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
      break;
    case 'length-negative':
      lines.push('Content-Length: -1');
      break;
    case 'length-and-chunked':
      lines.push(`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
      body = chunkedBody();
      break;
    case 'chunked-bad-size':
      lines.push('Transfer-Encoding: chunked');
      body = chunkedBody('', 'zz');
      break;
    case 'chunked-long-extension':
      lines.push('Transfer-Encoding: chunked');
      body = chunkedBody(`;x=${'e'.repeat(17_000)}`);
      break;
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Every complete answer in `data` (1xx skipped); `rest`: bytes that are not a complete answer. */
export function parseAnswers(data: Buffer): { answers: Answer[]; rest: Buffer } {
  const answers: Answer[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) break;
    const lines = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(lines[0] ?? '')?.[1] ?? NaN);
    if (!Number.isFinite(status)) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const bodyStart = headEnd + 4;
    if (status < 200) {
      offset = bodyStart;
      continue;
    }
    // Without a length (Node's own answers) the body runs to the close.
    const end = headers['content-length'] === undefined ? data.length : bodyStart + Number(headers['content-length']);
    if (end > data.length) break;
    answers.push({ status, headers, body: data.subarray(bodyStart, end).toString('utf8') });
    offset = end;
  }
  return { answers, rest: data.subarray(offset) };
}

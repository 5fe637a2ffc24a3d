// What a remote service learns, byte by byte: a real core set up with a remote
// service (a second real local service on loopback, its key in a private
// gnome-keyring) sends two files from a deep folder with distinctive names,
// through a TCP tap that records every byte the core sends. The settings
// promise the service the file, its name and the external reference, never the
// path: no request carries the folder, or any of its segments, anywhere (request
// line, headers, multipart part headers, attributes), and the attributes hold
// exactly file_name and external_reference_id, the reference being
// `verdict/<install id>/<record id>`.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import net, { type Socket } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalReferenceIdSchema } from '../../../shared/service-contract/scan.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { FAST, startTestService, type TestService } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const canRun = keyringTestsCanRun();
const { dir, dataDir, open, onCleanup } = useCoreFixture('verdict-privacy-Hx7Qa-');

let keyring: Keyring | null = null;
beforeAll(async () => {
  if (canRun) keyring = await startKeyring();
});
afterAll(async () => {
  await keyring?.stop();
});

/** A TCP relay to `target` that keeps every byte each client connection sent: what the service would receive, unparsed. */
async function startTap(target: string): Promise<{ url: string; sent: Buffer[][]; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sent: Buffer[][] = [];
  const sockets = new Set<Socket>();
  const server = net.createServer((client) => {
    const bytes: Buffer[] = [];
    sent.push(bytes);
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => bytes.push(Buffer.from(chunk)));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface RawRequest {
  method: string;
  target: string;
  headers: Array<[name: string, value: string]>;
  body: Buffer;
}

/** Splits one connection's bytes into HTTP/1.1 requests (Content-Length or chunked bodies). */
function parseRequests(stream: Buffer): RawRequest[] {
  const requests: RawRequest[] = [];
  let at = 0;
  while (at < stream.length) {
    const headEnd = stream.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error(`an incomplete request head: ${stream.subarray(at).toString('latin1').slice(0, 200)}`);
    const [requestLine = '', ...lines] = stream.subarray(at, headEnd).toString('utf8').split('\r\n');
    const [method = '', target = ''] = requestLine.split(' ');
    const headers = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]);
    const header = (name: string) => headers.find(([key]) => key === name)?.[1];
    let cursor = headEnd + 4;
    let body: Buffer;
    if (/chunked/i.test(header('transfer-encoding') ?? '')) {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = stream.indexOf('\r\n', cursor);
        const size = Number.parseInt(stream.subarray(cursor, lineEnd).toString('latin1'), 16);
        cursor = lineEnd + 2;
        if (size === 0) {
          cursor = stream.indexOf('\r\n', cursor) + 2;
          break;
        }
        chunks.push(stream.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(chunks);
    } else {
      const length = Number(header('content-length') ?? 0);
      body = stream.subarray(cursor, cursor + length);
      cursor += length;
    }
    requests.push({ method, target, headers, body });
    at = cursor;
  }
  return requests;
}

interface Part {
  headers: string[];
  content: Buffer;
}

/** The parts of a multipart/form-data body, each with its raw header lines. */
function multipartParts(body: Buffer, contentType: string): Part[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw new Error('an unterminated multipart body');
    const part = body.subarray(start + 2, next - 2); // after the CRLF following the delimiter, before the CRLF preceding the next
    const headEnd = part.indexOf('\r\n\r\n');
    parts.push({ headers: part.subarray(0, headEnd).toString('utf8').split('\r\n'), content: part.subarray(headEnd + 4) });
    at = next;
  }
  return parts;
}

/** Every form a path fragment could take in a request: raw UTF-8, percent-encoded, JSON-escaped. */
const encodings = (text: string): string[] => [...new Set([text, encodeURIComponent(text), encodeURI(text), JSON.stringify(text).slice(1, -1)])];

describe.runIf(canRun)('what a remote service receives', () => {
  it('gets the file, its name and the reference, and nothing of the path, in any request', async () => {
    const service: TestService = await startTestService(join(dir.path, 'remote-service'));
    onCleanup(() => service.close());
    const tap = await startTap(service.url);
    onCleanup(() => tap.close());

    const segments = ['Mandant-Oberhuber-QZ81', 'Steuerakte-2031-KV4T', 'Ärztliche-Befunde-WX9L', 'nicht-teilen-PJ27'];
    const folder = join(dir.path, ...segments);
    await mkdir(folder, { recursive: true });
    const names = ['Quartalsbericht-Sonnenblume-5521.pdf', 'Gehaltsliste Kranich 8806.xlsx'];
    const contents = ['quarterly figures, nothing else\n', 'salaries: none of your business\n'];
    const files = names.map((name) => join(folder, name));
    for (const [index, file] of files.entries()) await writeFile(file, contents[index]!);

    const core = await open(FAST);
    expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: tap.url } })).ok).toBe(true);
    expect((await core.settings.setApiKey(service.key)).ok).toBe(true);
    // One file answered within the request (sync), one polled for (async): both kinds of exchange are on the wire.
    const ids: string[] = [];
    for (const [index, mode] of (['sync', 'async'] as const).entries()) {
      const submitted = await core.submit([files[index]!], { origin: 'drop', mode, uploadConsent: new URL(tap.url).origin });
      if (!submitted.ok) throw new Error(submitted.error.message);
      ids.push(...submitted.value.ids);
      await core.idle();
    }
    const records = await Promise.all(
      ids.map(async (id) => {
        const record = await core.scans.get(id);
        if (!record.ok) throw new Error(record.error.message);
        return record.value;
      }),
    );
    for (const record of records) expect(record).toMatchObject({ status: 'completed', safe: true, backend: new URL(tap.url).origin });
    expect(records.map((record) => record.mode)).toEqual(['sync', 'async']);

    // 1. The raw bytes: no request holds the folder, or any part of it that is not the file's own name.
    const wire = Buffer.concat(tap.sent.flat());
    const secrets = [folder, ...segments, basename(dir.path)];
    for (const secret of secrets) {
      for (const form of encodings(secret)) expect(wire.includes(Buffer.from(form, 'utf8')), `"${form}" went over the wire`).toBe(false);
    }

    // 2. Request by request: only the documented headers, and uploads with exactly the two attributes.
    const requests = tap.sent.flatMap((bytes) => parseRequests(Buffer.concat(bytes)));
    const installId = (await readFile(join(dataDir(), 'install-id'), 'utf8')).trim();
    const uploads = requests.filter((request) => request.method === 'POST');
    expect(uploads).toHaveLength(2);
    expect(requests.filter((request) => request.method === 'GET').length).toBeGreaterThan(0);
    const transport = new Set(['host', 'connection', 'content-type', 'content-length', 'accept', 'expect']);
    for (const request of requests) {
      const named = Object.fromEntries(request.headers);
      expect(request.headers.map(([name]) => name).filter((name) => !transport.has(name)).sort()).toEqual(['authorization', 'content-language', 'user-agent']);
      expect(named).toMatchObject({ authorization: `Bearer ${service.key}`, 'user-agent': 'Verdict', accept: 'application/json' });
      expect(['en', 'de']).toContain(named['content-language']);
      // The request target is a scan id or a reference, nothing else.
      expect(request.target).toMatch(/^\/file-scans(\/[A-Za-z0-9-]+|\/external-reference\/verdict(\/|%2F)[a-z0-9]+(\/|%2F)[A-Za-z0-9-]+)?$/);
    }
    for (const [index, upload] of uploads.entries()) {
      const record = records[index]!;
      const parts = multipartParts(upload.body, Object.fromEntries(upload.headers)['content-type']!);
      expect(parts.map((part) => part.headers)).toEqual([
        ['Content-Disposition: form-data; name="attributes"', 'Content-Type: application/json'],
        [`Content-Disposition: form-data; name="file"; filename="${names[index]}"`, 'Content-Type: application/octet-stream'],
      ]);
      const attributes = JSON.parse(parts[0]!.content.toString('utf8')) as Record<string, unknown>;
      expect(Object.keys(attributes).sort()).toEqual(['external_reference_id', 'file_name']);
      expect(attributes.file_name).toBe(names[index]);
      // The documented shape: verdict/<random install id>/<the history record's id>, valid for the service.
      expect(attributes.external_reference_id).toBe(`verdict/${installId}/${record.id}`);
      expect(record.externalReferenceId).toBe(attributes.external_reference_id);
      expect(installId).toMatch(/^[a-z0-9]{16,64}$/);
      expect(externalReferenceIdSchema.safeParse(attributes.external_reference_id).success).toBe(true);
      expect(parts[1]!.content.toString('utf8')).toBe(contents[index]);
    }
  });
});

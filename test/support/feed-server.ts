// A signature feed server on loopback for the feeds' tests: each path answers as the test sets it
// (a body with an ETag and Last-Modified and 304 to a matching conditional request, a status, a
// body sent without Content-Length, or no answer at all), and every request's headers are kept.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FeedRoute =
  | { kind: 'file'; body: string | Buffer; etag: string; lastModified?: string; chunked?: boolean }
  | { kind: 'status'; status: number }
  /** Accepts the request and never answers (a server that hangs). */
  | { kind: 'silent' };

export interface FeedServer {
  url(path: string): string;
  set(path: string, route: FeedRoute): void;
  requests(path: string): IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, FeedRoute>();
  const seen = new Map<string, IncomingHttpHeaders[]>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    seen.set(path, [...(seen.get(path) ?? []), request.headers]);
    const route = routes.get(path) ?? { kind: 'status', status: 404 };
    if (route.kind === 'silent') return void hanging.add(response);
    if (route.kind === 'status') return void response.writeHead(route.status, { 'content-type': 'text/plain' }).end(`status ${route.status}\n`);
    const lastModified = route.lastModified ?? 'Wed, 25 Nov 2026 10:00:00 GMT';
    if (request.headers['if-none-match'] === route.etag) return void response.writeHead(304, { etag: route.etag }).end();
    const body = Buffer.from(route.body);
    const headers: Record<string, string> = { etag: route.etag, 'last-modified': lastModified, 'content-type': 'application/octet-stream' };
    if (!route.chunked) headers['content-length'] = String(body.length);
    response.writeHead(200, headers);
    // Sent in pieces, so a size cap must act on what arrives, not on a header.
    for (let at = 0; at < body.length; at += 64 * 1024) response.write(body.subarray(at, at + 64 * 1024));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, route) => void routes.set(path, route),
    requests: (path) => seen.get(path) ?? [],
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// One loopback HTTP server for an e2e test: the bridge under /__bridge, the
// renderer build everywhere else. Same origin, so the CSP needs no exception.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestBridge } from './bridge-server.ts';
import { staticFiles } from './static-files.ts';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function startTestServer(options: { staticDir: string; bridge: TestBridge }): Promise<TestServer> {
  const serveFile = staticFiles(options.staticDir);
  const server: Server = createServer((request, response) => {
    if (options.bridge.handle(request, response)) return;
    serveFile(request, response).catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      options.bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

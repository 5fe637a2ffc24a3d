// Serves the production renderer build (dist/renderer) the way the app does:
// files only from inside the build folder, with the app's CSP header too.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { contentSecurityPolicy } from '../../../electron/shell/csp.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function staticFiles(root: string): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const base = path.resolve(root);
  return async (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://static');
    const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    const file = path.resolve(base, `.${relative}`);
    if (!file.startsWith(base + path.sep) || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  };
}

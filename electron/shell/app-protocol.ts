// Serves the built renderer (dist/renderer) on `verdict://app/…` instead of file://
// (Electron's security checklist, item 18): the page gets a real origin that CSP
// 'self' and the IPC sender check can name, and nothing outside the folder can be
// read through it. Every response carries the CSP header.
import fs from 'node:fs/promises';
import path from 'node:path';
import { protocol, type Session } from 'electron';
import { APP_HOST, APP_SCHEME } from './app-origin.ts';

/** Must run before `app` is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    // standard + secure: a proper origin with a secure context (module scripts, 'self');
    // no bypassCSP, no service workers, no CORS opening for other origins.
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` that `requestUrl` names, or null when the URL is not ours
 * or would leave `root` (`..`, encoded separators, NUL). Pure.
 */
export function resolveAppFile(requestUrl: string, root: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const base = path.resolve(root);
  const file = path.resolve(base, `.${pathname}`);
  if (!file.startsWith(base + path.sep)) return null;
  return file;
}

/** The response for one request: the file with its type, CSP and nosniff, or a 404. */
export async function appResponse(requestUrl: string, root: string, csp: string): Promise<Response> {
  const headers = { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' };
  const file = resolveAppFile(requestUrl, root);
  if (file === null) return new Response('Not found', { status: 404, headers });
  try {
    const body = await fs.readFile(file);
    return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': contentTypeOf(file) } });
  } catch {
    return new Response('Not found', { status: 404, headers });
  }
}

/** Serves `root` on the app scheme in `session` (call once the app is ready). */
export function serveAppProtocol(session: Session, root: string, csp: string): void {
  session.protocol.handle(APP_SCHEME, (request) => appResponse(request.url, root, csp));
}

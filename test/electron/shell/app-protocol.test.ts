import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { protocol, resetFakeElectron, session } from './fake-electron.ts';
import { APP_SCHEME, APP_START_URL } from '../../../electron/shell/app-origin.ts';
import { appResponse, contentTypeOf, registerAppScheme, resolveAppFile, serveAppProtocol } from '../../../electron/shell/app-protocol.ts';
import { contentSecurityPolicy } from '../../../electron/shell/csp.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const root = path.resolve('/opt/verdict/dist/renderer');

describe('resolveAppFile', () => {
  it('maps app URLs to files under the root', () => {
    expect(resolveAppFile('verdict://app/index.html', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile('verdict://app/', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile('verdict://app/assets/index-abc.js?v=1#x', root)).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(resolveAppFile('verdict://app/assets/a%20b.css', root)).toBe(path.join(root, 'assets', 'a b.css'));
  });

  it('keeps dot segments the URL parser normalizes inside the root', () => {
    expect(resolveAppFile('verdict://app/../../etc/passwd', root)).toBe(path.join(root, 'etc', 'passwd'));
    expect(resolveAppFile('verdict://app/%2e%2e/%2e%2e/etc/passwd', root)).toBe(path.join(root, 'etc', 'passwd'));
  });

  it.each([
    'verdict://app/assets/%2e%2e%2f%2e%2e%2f..%2fetc%2fpasswd',
    'verdict://app/..%5c..%5cwindows',
    'verdict://app/a%00.js',
    'verdict://app/%E0%A4%A',
    'verdict://other/index.html',
    'file:///etc/passwd',
    'https://app/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppFile(url, root)).toBeNull();
  });
});

describe('appResponse (real files in a temp folder)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verdict-protocol-'));
    await fs.mkdir(path.join(dir, 'assets'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Verdict</title>');
    await fs.writeFile(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
    await fs.writeFile(path.join(path.dirname(dir), `${path.basename(dir)}-secret.txt`), 'outside');
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(path.join(path.dirname(dir), `${path.basename(dir)}-secret.txt`), { force: true });
  });

  it('serves a file with its type, the CSP header and nosniff', async () => {
    const response = await appResponse('verdict://app/assets/app.js', dir, contentSecurityPolicy());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('console.log(1)');
  });

  it('answers 404 (with CSP) for missing files and for anything outside the folder', async () => {
    for (const url of ['verdict://app/missing.js', `verdict://app/..%2f${path.basename(dir)}-secret.txt`, 'verdict://app/assets']) {
      const response = await appResponse(url, dir, 'default-src none');
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-security-policy')).toBe('default-src none');
    }
  });

  it('is what the session protocol handler answers', async () => {
    resetFakeElectron();
    serveAppProtocol(session.defaultSession as never, dir, contentSecurityPolicy());
    const handler = session.defaultSession.protocolHandlers.get(APP_SCHEME);
    expect(handler).toBeDefined();
    const response = await handler!({ url: APP_START_URL });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('the app scheme', () => {
  beforeEach(() => resetFakeElectron());

  it('is registered as a standard, secure scheme that does not bypass CSP', () => {
    registerAppScheme();
    const [schemes] = protocol.registerSchemesAsPrivileged.mock.calls[0]! as [Array<{ scheme: string; privileges: Record<string, boolean> }>];
    expect(schemes).toHaveLength(1);
    expect(schemes[0]!.scheme).toBe('verdict');
    expect(schemes[0]!.privileges).toMatchObject({ standard: true, secure: true });
    expect(schemes[0]!.privileges.bypassCSP).not.toBe(true);
    expect(schemes[0]!.privileges.allowServiceWorkers).not.toBe(true);
    expect(schemes[0]!.privileges.corsEnabled).not.toBe(true);
  });

  it('types what the renderer build contains', () => {
    expect(contentTypeOf('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('/x/a.CSS')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('/x/logo.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('/x/font.woff2')).toBe('font/woff2');
    expect(contentTypeOf('/x/unknown.bin')).toBe('application/octet-stream');
  });
});

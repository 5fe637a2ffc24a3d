import { describe, expect, it, vi } from 'vitest';
import { app, FakeEvent, FakeWebContents, session, shell } from './fake-electron.ts';
import { useFreshShell, type LogCapture } from './log-capture.ts';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { contentSecurityPolicy } from '../../../electron/shell/csp.ts';
import { hardenAllWebContents, hardenSession, hardenWebContents } from '../../../electron/shell/session-hardening.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
useFreshShell((started) => (capture = started));

const PERMISSIONS = ['notifications', 'media', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'display-capture', 'usb', 'serial', 'hid'];

describe('hardenSession', () => {
  it('denies every permission request and every permission check', () => {
    const ses = session.defaultSession;
    hardenSession(ses as never, contentSecurityPolicy(), capture.log);
    const contents = new FakeWebContents();
    contents.url = 'verdict://app/index.html';
    for (const permission of PERMISSIONS) {
      const callback = vi.fn();
      ses.permissionRequestHandler!(contents, permission, callback, {});
      expect(callback, permission).toHaveBeenCalledWith(false);
      expect(ses.permissionCheckHandler!(contents, permission, 'verdict://app', {}), permission).toBe(false);
    }
    expect(ses.devicePermissionHandler!({ deviceType: 'usb', origin: 'verdict://app' })).toBe(false);
    expect(capture.lines().some((line) => line.msg === 'permission request denied' && line.permission === 'media')).toBe(true);
  });

  it('puts the CSP header on every response, replacing what the server sent', () => {
    const ses = session.defaultSession;
    hardenSession(ses as never, contentSecurityPolicy(), capture.log);
    const responses: Array<Record<string, string[]> | undefined> = [];
    for (const details of [
      { url: 'http://localhost:5173/', responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': ["script-src * 'unsafe-inline'"] } },
      { url: 'verdict://app/index.html' },
    ]) {
      ses.headersListener!(details, (response) => responses.push(response.responseHeaders));
    }
    expect(responses[0]!['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    expect(responses[0]!['content-type']).toEqual(['text/html']);
    expect(responses[1]!['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    const header = responses[0]!['Content-Security-Policy']![0]!;
    expect(header).toContain("script-src 'self'");
    expect(header).not.toContain('unsafe-inline');
  });

  it('refuses downloads', () => {
    const ses = session.defaultSession;
    hardenSession(ses as never, contentSecurityPolicy(), capture.log);
    const event = new FakeEvent();
    ses.emit('will-download', event, { getURL: () => 'https://example.com/x.exe' });
    expect(event.defaultPrevented).toBe(true);
  });
});

describe('hardenWebContents', () => {
  const origins = appOrigins(null);

  function hardened(): FakeWebContents {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, origins, capture.log);
    return contents;
  }

  it('blocks navigation away from the app', () => {
    const contents = hardened();
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'verdict://other/index.html', 'javascript:alert(1)', 'http://localhost:5173/']) {
      const event = new FakeEvent(url);
      contents.emit('will-navigate', event);
      expect(event.defaultPrevented, url).toBe(true);
    }
    expect(capture.lines().filter((line) => line.msg === 'navigation blocked')).toHaveLength(5);
  });

  it('lets the app reload itself (same origin)', () => {
    const contents = hardened();
    const event = new FakeEvent('verdict://app/index.html');
    contents.emit('will-navigate', event);
    expect(event.defaultPrevented).toBe(false);
  });

  it('blocks frame navigations and redirects away from the app', () => {
    const contents = hardened();
    for (const name of ['will-frame-navigate', 'will-redirect']) {
      const away = new FakeEvent('https://evil.example/');
      contents.emit(name, away);
      expect(away.defaultPrevented, name).toBe(true);
    }
  });

  it('denies window.open, sending http(s) links to the OS browser and nothing else', async () => {
    const contents = hardened();
    const handler = contents.windowOpenHandler!;
    for (const url of ['https://example.com/help', 'http://example.org/', 'javascript:alert(1)', 'file:///etc/passwd', 'verdict://app/index.html', 'https://u:p@example.com/']) {
      expect(handler({ url }), url).toEqual({ action: 'deny' });
    }
    await vi.waitFor(() => expect(shell.openExternal).toHaveBeenCalledTimes(2));
    expect(shell.openExternal.mock.calls.map(([url]) => url)).toEqual(['https://example.com/help', 'http://example.org/']);
  });

  it('prevents <webview> from attaching', () => {
    const contents = hardened();
    const event = new FakeEvent();
    contents.emit('will-attach-webview', event, { preload: '/evil.js', nodeIntegration: true }, { src: 'https://evil.example' });
    expect(event.defaultPrevented).toBe(true);
  });

  it('is applied to every web contents the app creates', () => {
    hardenAllWebContents(origins, capture.log);
    const contents = new FakeWebContents();
    app.emit('web-contents-created', new FakeEvent(), contents);
    const event = new FakeEvent('https://evil.example/');
    contents.emit('will-navigate', event);
    expect(event.defaultPrevented).toBe(true);
    expect(contents.windowOpenHandler).not.toBeNull();
  });

  it('allows the dev server origin only when one is configured', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, appOrigins('http://localhost:5173/'), capture.log);
    const dev = new FakeEvent('http://localhost:5173/index.html');
    contents.emit('will-navigate', dev);
    expect(dev.defaultPrevented).toBe(false);
    const otherPort = new FakeEvent('http://localhost:5174/');
    contents.emit('will-navigate', otherPort);
    expect(otherPort.defaultPrevented).toBe(true);
  });
});

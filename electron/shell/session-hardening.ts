// Hardening that applies to every session and every web contents, not just our
// window: permissions denied, CSP on every response, downloads refused, navigation
// limited to the app's own origin, new windows denied (http(s) links go to the OS
// browser), <webview> never attached. Electron's checklist items 5, 7, 12, 13, 14.
import { app, type Session, type WebContents } from 'electron';
import type { Logger } from '../logging/logger.ts';
import { isAppUrl } from './app-origin.ts';
import { openExternalLink } from './external-links.ts';

/** The UI needs no browser permission: notifications, clipboard and files go through IPC. */
export function hardenSession(session: Session, csp: string, log: Logger): void {
  session.setPermissionRequestHandler((webContents, permission, callback) => {
    log.warn({ permission, url: webContents.getURL() }, 'permission request denied');
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    // The policy comes from csp.ts; Electronegativity evaluates only string literals, so csp.test.ts runs its evaluator on it.
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } }); // eng-disable CSP_GLOBAL_CHECK -- policy built in csp.ts and evaluated in csp.test.ts
  });
  session.on('will-download', (event, item) => {
    log.warn({ url: item.getURL() }, 'download refused');
    event.preventDefault();
  });
}

/** Guards for one web contents; `origins` are where the UI may live. */
export function hardenWebContents(contents: WebContents, origins: readonly string[], log: Logger): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url, origins)) return;
    log.warn({ url: event.url }, 'navigation blocked');
    event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (isAppUrl(event.url, origins)) return;
    log.warn({ url: event.url }, 'frame navigation blocked');
    event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (isAppUrl(event.url, origins)) return;
    log.warn({ url: event.url }, 'redirect blocked');
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalLink(url).then((opened) => {
      if (!opened) log.warn({ url }, 'window.open refused');
    });
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    log.warn('webview refused');
    event.preventDefault();
  });
}

/** Applies hardenWebContents to every web contents the app ever creates. */
export function hardenAllWebContents(origins: readonly string[], log: Logger): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, origins, log));
}

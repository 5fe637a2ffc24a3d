// Where the UI comes from: the app's own `verdict://app` scheme in production
// (Electron's security checklist, item 18: no file://), or the Vite dev server
// in development. IPC senders and navigations are checked against it.

export const APP_SCHEME = 'verdict';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/**
 * `scheme://host[:port]` of a URL, lower-cased, or null. (`URL.origin` is the
 * string "null" for custom schemes, so it cannot be compared.)
 */
export function originOf(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (!url.host) return null;
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    return null;
  }
}

/** The origins the UI may be loaded from: ours, plus the dev server when given. */
export function appOrigins(devServerUrl?: string | null): string[] {
  const dev = devServerUrl ? originOf(devServerUrl) : null;
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN];
}

export function isAppUrl(raw: string, origins: readonly string[]): boolean {
  const origin = originOf(raw);
  return origin !== null && origins.includes(origin);
}

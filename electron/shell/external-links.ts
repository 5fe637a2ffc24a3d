// External links leave the app only as http(s) URLs opened by the OS browser;
// everything else (file:, javascript:, custom schemes, URLs with credentials) is
// refused, because shell.openExternal hands the URL to whatever handles its scheme.
import { shell } from 'electron';

const MAX_URL_LENGTH = 2048;

/** The normalized URL when it is safe to open outside the app, else null. Pure. */
export function safeExternalUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return url.toString();
}

/** Opens `raw` in the OS browser when it passes the allow-list; says whether it did. */
export async function openExternalLink(raw: unknown): Promise<boolean> {
  const url = safeExternalUrl(raw);
  if (url === null) return false;
  await shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK -- only a URL that passed safeExternalUrl above (http(s), no credentials)
  return true;
}

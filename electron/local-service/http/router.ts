// Maps a request line to one of the four endpoints of spec section 4.
// Anything else (unknown path, or a known path with another method) is 404.
import type { ExecutionMode } from '../../../shared/service-contract/scan.ts';

export type Route =
  | { kind: 'submit'; mode: ExecutionMode }
  | { kind: 'get-by-id'; id: string }
  | { kind: 'get-by-reference'; reference: string }
  | { kind: 'not-found' };

const REFERENCE_PREFIX = '/file-scans/external-reference/';
const MAX_PATH_VALUE = 1024;

export function routeOf(method: string | undefined, rawUrl: string | undefined): Route {
  const path = (rawUrl ?? '/').split('?')[0] as string;
  if (method === 'POST') {
    if (path === '/file-scans') return { kind: 'submit', mode: 'async' };
    if (path === '/file-scans/sync') return { kind: 'submit', mode: 'sync' };
  }
  if (method === 'GET') {
    // References may contain `/`, sent raw or as %2F: the reference is the whole rest of the path.
    if (path.startsWith(REFERENCE_PREFIX)) {
      const reference = decode(path.slice(REFERENCE_PREFIX.length));
      if (reference) return { kind: 'get-by-reference', reference };
    } else {
      const match = /^\/file-scans\/([^/]+)$/.exec(path);
      const id = match?.[1] === undefined ? null : decode(match[1]);
      if (id && id !== 'sync' && id !== 'external-reference') return { kind: 'get-by-id', id };
    }
  }
  return { kind: 'not-found' };
}

function decode(value: string): string | null {
  if (value.length === 0 || value.length > MAX_PATH_VALUE) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

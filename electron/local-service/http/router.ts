// Maps a request line to one of the four endpoints of spec section 4. A known
// path with another method is 405 with the method it allows (RFC 9110 15.5.6);
// an unknown path, with any method, is 404.
import type { ExecutionMode } from '../../../shared/service-contract/scan.ts';

export type Route =
  | { kind: 'submit'; mode: ExecutionMode }
  | { kind: 'get-by-id'; id: string }
  | { kind: 'get-by-reference'; reference: string }
  | { kind: 'method-not-allowed'; allow: readonly Method[] }
  | { kind: 'not-found' };

type Method = 'GET' | 'POST';

/** A path the service knows: the one method it serves there, and the route (null: that method finds nothing). */
interface Resource {
  method: Method;
  route: Route | null;
}

const REFERENCE_PREFIX = '/file-scans/external-reference/';
const MAX_PATH_VALUE = 1024;
const NOT_FOUND: Route = { kind: 'not-found' };

export function routeOf(method: string | undefined, rawUrl: string | undefined): Route {
  const resource = resourceOf((rawUrl ?? '/').split('?')[0] as string);
  if (!resource) return NOT_FOUND;
  if (method !== resource.method) return { kind: 'method-not-allowed', allow: [resource.method] };
  return resource.route ?? NOT_FOUND;
}

function resourceOf(path: string): Resource | null {
  if (path === '/file-scans') return { method: 'POST', route: { kind: 'submit', mode: 'async' } };
  if (path === '/file-scans/sync') return { method: 'POST', route: { kind: 'submit', mode: 'sync' } };
  // References may contain `/`, sent raw or as %2F: the reference is the whole rest of the path.
  if (path.startsWith(REFERENCE_PREFIX)) {
    const rest = path.slice(REFERENCE_PREFIX.length);
    if (rest.length === 0) return null;
    const reference = decode(rest);
    return { method: 'GET', route: reference ? { kind: 'get-by-reference', reference } : null };
  }
  const match = /^\/file-scans\/([^/]+)$/.exec(path);
  if (!match?.[1] || match[1] === 'external-reference') return null;
  const id = decode(match[1]);
  return { method: 'GET', route: id ? { kind: 'get-by-id', id } : null };
}

function decode(value: string): string | null {
  if (value.length === 0 || value.length > MAX_PATH_VALUE) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

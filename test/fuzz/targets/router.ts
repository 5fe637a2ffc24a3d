// The path of a request (http/router.ts): any request line maps to a route,
// never a throw, and a reference sent percent-encoded comes back as sent. A path
// is known or not whatever the method: one method routes, the others get 405
// with that one in Allow, and an unknown path is 404 for every method.
import fc from 'fast-check';
import { routeOf, type Route } from '../../../electron/local-service/http/router.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { hostileString, trickyString } from './support/strings.ts';

const PREFIXES = ['/file-scans', '/file-scans/', '/file-scans/sync', '/file-scans/external-reference/', '/file-scans/external-reference', '//file-scans/', '/FILE-SCANS/', ''];

interface RouterInput {
  method: string;
  url: string;
  /** A reference sent percent-encoded: must route back to exactly it. */
  reference: string | null;
}

const method = fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get', ''), trickyString(2));
const SERVED = ['GET', 'POST'];
const path = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.array(fc.oneof(hostileString(1030), fc.constantFrom('/', '?', '?a=1', '#', '%2F', '%')), { maxLength: 4 }))
  .map(([prefix, rest]) => prefix + rest.join(''));

/** encodeURIComponent throws on a lone surrogate: such a reference cannot be sent. */
function encodable(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

const input: fc.Arbitrary<RouterInput> = fc.oneof(
  fc.record({ method, url: path, reference: fc.constant(null) }),
  hostileString(300)
    .filter((reference) => encodable(reference))
    .map((reference) => ({ method: 'GET', url: `/file-scans/external-reference/${encodeURIComponent(reference)}`, reference })),
);

export const routerTarget: FuzzTarget<RouterInput> = {
  name: 'router',
  about: 'routeOf: a route for any method and path; a percent-encoded reference routes back to itself',
  smoke: { runs: 5000 },
  async: false,
  async open() {
    return {
      arbitrary: input,
      check({ method: verb, url, reference }) {
        const route: Route = routeOf(verb, url);
        expectThat(['submit', 'get-by-id', 'get-by-reference', 'method-not-allowed', 'not-found'].includes(route.kind), 'unknown route kind');
        // The same path with each served method: 405 names exactly the methods that do not get 405.
        const byMethod = SERVED.map((served) => routeOf(served, url).kind);
        const allowed = SERVED.filter((_served, i) => byMethod[i] !== 'method-not-allowed');
        if (route.kind === 'method-not-allowed') {
          expectThat(!SERVED.includes(verb) || !allowed.includes(verb), () => `${verb} ${url} is 405 but served`);
          expectThat(route.allow.length > 0 && route.allow.join() === allowed.join(), () => `${verb} ${url}: Allow ${route.allow.join()} but ${allowed.join()} are served`);
        }
        if (route.kind === 'not-found' && allowed.length === SERVED.length) {
          expectThat(byMethod.every((kind) => kind === 'not-found'), () => `${url} is unknown to ${verb} but not to every method`);
        }
        if (route.kind === 'get-by-reference') expectThat(route.reference.length > 0, 'empty reference routed');
        if (route.kind === 'get-by-id') expectThat(route.id.length > 0, 'empty id routed');
        if (reference !== null && reference.length > 0 && encodeURIComponent(reference).length <= 1024) {
          expectThat(route.kind === 'get-by-reference' && route.reference === reference, () => `reference ${JSON.stringify(reference)} routed as ${JSON.stringify(route)}`);
        }
      },
      close: async () => {},
    };
  },
};

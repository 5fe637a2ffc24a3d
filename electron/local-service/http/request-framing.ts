// Checks of the request line and Host header that Node's parser lets through.
// Node's own Host check (`requireHostHeader`) answers with an empty body, so it
// is off and this one answers instead, with the documented JSON error body.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.ts';

/** RFC 3986 host (an IP literal, or a reg-name / IPv4 address, possibly empty) and an optional port. */
const HOST_VALUE = /^(?:\[[0-9A-Za-z.:_~%!$&'()*+,;=-]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]*)(?::[0-9]*)?$/;

/** Why the request's framing is refused (505, or 400 for its Host header), or null when it is fine. */
export function framingProblem(req: IncomingMessage): HttpError | null {
  // HTTP/2.0 and HTTP/0.9 request lines reach the handler; an answer in HTTP/1.1 framing would mislead them.
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor > 1) {
    return new HttpError('http_version_not_supported', { key: 'httpVersionNotSupported' }, { headers: { connection: 'close' } });
  }
  // RFC 9112 3.2: an HTTP/1.1 request needs exactly one Host with a valid value; HTTP/1.0 may leave it out.
  const hosts = hostValues(req);
  const required = req.httpVersionMinor === 1;
  if ((required && hosts.length === 0) || hosts.length > 1 || (hosts[0] !== undefined && !HOST_VALUE.test(hosts[0]))) {
    return new HttpError('invalid_request', { key: 'badHostHeader' }, { headers: { connection: 'close' } });
  }
  return null;
}

/** Every Host field line as sent: `req.headers` keeps only the first of several. */
function hostValues(req: IncomingMessage): string[] {
  const values: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).length === 4 && (raw[i] as string).toLowerCase() === 'host') values.push(raw[i + 1] as string);
  }
  return values;
}

// Writes JSON responses and error bodies (`{"code", "message"}` plus extras)
// with the headers every response carries.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODES, type ErrorBody } from '../../../shared/service-contract/errors.ts';
import type { Language } from '../../../shared/service-contract/limits.ts';
import { render } from '../messages/catalogue.ts';
import type { HttpError } from './http-error.ts';

/** After an early answer we still read (and drop) this much body so the client can see the answer. */
const MAX_DISCARDED_BODY_BYTES = 256 * 1024 * 1024;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  language: Language,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'content-language': language,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: HttpError, language: Language): void {
  const body: ErrorBody = { code: error.code, message: render(error.detail, language), ...error.extra };
  const headers = { ...error.headers };
  // A client that waits for `100 Continue` will not send the body: the connection cannot be reused.
  if (!req.complete && req.headers.expect?.toLowerCase() === '100-continue' && !continued.has(res)) headers.connection = 'close';
  sendJson(res, ERROR_CODES[error.code], body, language, headers);
  discardBody(req);
}

const continued = new WeakSet<ServerResponse>();

/** Sends `100 Continue` once, if the client asked for it, right before the body is read. */
export function allowBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.expect?.toLowerCase() === '100-continue' && !continued.has(res)) {
    continued.add(res);
    res.writeContinue();
  }
}

/**
 * Drops the rest of a request body we will not use. Answering early and then
 * draining keeps the connection well-behaved: a client still uploading gets to
 * read the answer instead of a reset. A body beyond the cap ends the connection.
 */
export function discardBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.unpipe();
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > MAX_DISCARDED_BODY_BYTES) req.destroy();
  });
  req.on('error', () => {});
  req.resume();
}

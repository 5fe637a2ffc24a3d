// Answers for requests that Node's HTTP parser refuses before the request
// handler runs (server 'clientError'), and for an `Expect` other than
// 100-continue ('checkExpectation'). Node's own answers have an empty body;
// these carry the documented JSON error body with a code of their own, so a
// client never mistakes a slow request's 408 for `sync_scan_timeout`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, type ErrorCode } from '../../../shared/service-contract/errors.ts';
import { languageOf } from '../messages/language.ts';
import { render, type Message } from '../messages/catalogue.ts';
import type { ServiceLogger } from '../logger.ts';
import { HttpError } from './http-error.ts';
import { framingProblem } from './request-framing.ts';
import { sendError } from './respond.ts';

/** Node's bound on the request line plus headers (16 KiB unless --max-http-header-size says otherwise). */
const HEADER_LIMIT = `${Math.round(maxHeaderSize / 1024)} KiB`;

/** The server's bounds on receiving a request: its line and headers, and the whole of it. */
export interface RequestTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** What Node's parser error means for the client: the code and words of the answer. `timeoutMs`: the bound that passed. */
function answerFor(error: NodeJS.ErrnoException, timeoutMs: number): { code: ErrorCode; message: Message } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: { key: 'requestTimeout', params: { seconds: Math.round(timeoutMs / 1000) } } };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: { key: 'headersTooLarge', params: { limit: HEADER_LIMIT } } };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'request_too_large', message: { key: 'requestTooLarge' } };
    // `HTTP/1.2`, `HTTP/9.9`; and `PRI * HTTP/2.0`, HTTP/2's connection preface.
    case 'HPE_INVALID_VERSION':
    case 'HPE_PAUSED_H2_UPGRADE':
      return { code: 'http_version_not_supported', message: { key: 'httpVersionNotSupported' } };
    default:
      return { code: 'invalid_request', message: { key: 'malformedHttp' } };
  }
}

/**
 * The server's 'clientError' listener. As Node's default does, it answers only when no
 * answer is under way on the socket (a pipelined request's parse error after an answer
 * started would corrupt it), and then closes the connection: the parser cannot go on.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, timeouts: RequestTimeouts, logger: ServiceLogger): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  // A request in flight had its headers read: it is its body that came too slowly (requestTimeout).
  const request: IncomingMessage | undefined = inFlight?.req;
  const { code, message } = answerFor(error, request ? timeouts.requestTimeoutMs : timeouts.headersTimeoutMs);
  const status = ERROR_CODES[code];
  // Without parsed headers the request's language is unknown: English.
  const language = request ? languageOf(request.headers) : 'en';
  const body = JSON.stringify({ code, message: render(message, language) });
  logger.info({ status, code, parserCode: error.code }, 'request refused by the HTTP layer');
  const answer =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Content-Language: ${language}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n` +
    body;
  // A request in flight must not go on, or its upload could still become a scan after "nothing was scanned":
  // the socket is destroyed once the answer is out (its handler sees the client gone). Otherwise end() alone
  // lets a client that is still writing read the answer.
  if (request) socket.end(answer, () => socket.destroy());
  else socket.end(answer);
}

/** The server's 'checkExpectation' listener: any `Expect` but 100-continue is refused, in the documented shape. */
export function answerUnknownExpectation(req: IncomingMessage, res: ServerResponse): void {
  // The body may follow or not: the connection cannot be reused either way. A bad version or Host comes first, as for any request.
  const error = framingProblem(req) ?? new HttpError('expectation_failed', { key: 'expectationFailed' }, { headers: { connection: 'close' } });
  sendError(req, res, error, languageOf(req.headers));
}

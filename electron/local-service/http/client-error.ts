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
import { sendError } from './respond.ts';

/** Node's bound on the request line plus headers (16 KiB unless --max-http-header-size says otherwise). */
const HEADER_LIMIT = `${Math.round(maxHeaderSize / 1024)} KiB`;

/** What Node's parser error means for the client: the code and words of the answer. */
function answerFor(error: NodeJS.ErrnoException, headersTimeoutMs: number): { code: ErrorCode; message: Message } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: { key: 'requestTimeout', params: { seconds: Math.round(headersTimeoutMs / 1000) } } };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: { key: 'headersTooLarge', params: { limit: HEADER_LIMIT } } };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'request_too_large', message: { key: 'requestTooLarge' } };
    default:
      return { code: 'invalid_request', message: { key: 'malformedHttp' } };
  }
}

/**
 * The server's 'clientError' listener. As Node's default does, it answers only when no
 * answer is under way on the socket (a pipelined request's parse error after an answer
 * started would corrupt it), and then closes the connection: the parser cannot go on.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, headersTimeoutMs: number, logger: ServiceLogger): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { code, message } = answerFor(error, headersTimeoutMs);
  const status = ERROR_CODES[code];
  // The request's headers were not parsed, so its Content-Language is unknown: English.
  const body = JSON.stringify({ code, message: render(message, 'en') });
  logger.info({ status, code, parserCode: error.code }, 'request refused by the HTTP parser');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Content-Language: en\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
      body,
  );
}

/** The server's 'checkExpectation' listener: any `Expect` but 100-continue is refused, in the documented shape. */
export function answerUnknownExpectation(req: IncomingMessage, res: ServerResponse): void {
  // The body may follow or not: the connection cannot be reused either way.
  const error = new HttpError('expectation_failed', { key: 'expectationFailed' }, { headers: { connection: 'close' } });
  sendError(req, res, error, languageOf(req.headers));
}

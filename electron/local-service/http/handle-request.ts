// The request pipeline: language, the request's framing (HTTP version, Host),
// rate limit, bearer authentication, routing, then the endpoint. Every failure
// becomes a JSON error body; anything unexpected is a 500 without internals,
// and the service keeps serving.
// Listeners a request registers on emitters go through error-boundary.ts, so
// a throw inside one reaches this boundary too instead of ending the process.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '../../../shared/service-contract/limits.ts';
import type { ApiKeyring } from '../auth/api-keys.ts';
import type { RateLimiter } from '../auth/rate-limiter.ts';
import type { ServiceParts } from '../handlers/context.ts';
import { getScanById, getScanByReference } from '../handlers/get-scan.ts';
import { submitScan } from '../handlers/submit-scan.ts';
import type { ServiceLogger } from '../logger.ts';
import { languageOf } from '../messages/language.ts';
import { ClientGoneError } from '../upload/receive-submission.ts';
import { HttpError } from './http-error.ts';
import { framingProblem } from './request-framing.ts';
import { sendError } from './respond.ts';
import { routeOf } from './router.ts';

export interface RequestHandlerOptions {
  keyring: ApiKeyring;
  rateLimiter: RateLimiter | null;
  parts: ServiceParts;
  logger: ServiceLogger;
}

const REALM = 'Bearer realm="verdict-local-service"';

export function createRequestHandler(options: RequestHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { keyring, rateLimiter, parts, logger } = options;
  // Decided once: with info off, no request pays for a listener and a log line nobody reads.
  const logRequests = logger.isLevelEnabled?.('info') ?? true;

  async function handle(req: IncomingMessage, res: ServerResponse, language: Language): Promise<void> {
    // What Node's parser let through but HTTP/1.1 refuses, first, as Node's own checks would be.
    const framing = framingProblem(req);
    if (framing) throw framing;
    const auth = keyring.authenticate(req);
    // Callers without a valid key share one bucket, so guessing keys is throttled too.
    const decision = rateLimiter?.take(auth.ok ? auth.integrationId : 'unauthenticated') ?? { ok: true };
    if (!decision.ok) {
      throw new HttpError(
        'rate_limited',
        { key: 'rateLimited', params: { seconds: decision.retryAfterSeconds } },
        { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
      );
    }
    if (!auth.ok) {
      throw auth.reason === 'missing'
        ? new HttpError('unauthorized', { key: 'missingApiKey' }, { headers: { 'www-authenticate': REALM } })
        : new HttpError('unauthorized', { key: 'unknownApiKey' }, { headers: { 'www-authenticate': `${REALM}, error="invalid_token"` } });
    }

    const ctx = { req, res, language, integrationId: auth.integrationId };
    const route = routeOf(req.method, req.url);
    switch (route.kind) {
      case 'submit':
        return submitScan(ctx, parts, route.mode);
      case 'get-by-id':
        return getScanById(ctx, parts, route.id);
      case 'get-by-reference':
        return getScanByReference(ctx, parts, route.reference);
      case 'method-not-allowed': {
        const allow = route.allow.join(', ');
        throw new HttpError('method_not_allowed', { key: 'methodNotAllowed', params: { method: req.method ?? '', allow } }, { headers: { allow } });
      }
      case 'not-found':
        throw new HttpError('not_found', { key: 'routeNotFound' });
    }
  }

  /** The request's error boundary: whatever went wrong becomes its answer, and the service goes on. */
  function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown, language: Language): void {
    if (error instanceof ClientGoneError) return;
    try {
      if (error instanceof HttpError) return sendError(req, res, error, language);
      logger.error({ err: error, method: req.method }, 'request failed');
      sendError(req, res, new HttpError('internal_error', { key: 'internalError' }), language);
    } catch (sendFailure) {
      // Not even an error body could be written: drop the connection, keep the service.
      logger.error({ err: sendFailure }, 'could not answer a failed request');
      res.destroy();
    }
  }

  return (req, res) => {
    let language: Language = 'en';
    try {
      if (logRequests) {
        const started = performance.now();
        // Path only: the query is unused, and the Authorization header is never logged.
        res.once('finish', () =>
          logger.info({ method: req.method, path: (req.url ?? '').split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request'),
        );
      }
      language = languageOf(req.headers);
      handle(req, res, language).catch((error: unknown) => answerFailure(req, res, error, language));
    } catch (error) {
      answerFailure(req, res, error, language);
    }
  };
}

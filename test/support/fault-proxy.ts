/**
 * A fault-injecting HTTP proxy for tests: a real server on 127.0.0.1 (port 0)
 * that forwards every request to a target (e.g. the local File Scanning
 * Service) unless a rule says to break it. It logs every request it receives,
 * so tests can count attempts and retries.
 *
 * ```ts
 * const proxy = await startFaultProxy(service.url);
 * proxy.addRule({ method: 'POST', path: '/file-scans', times: 2, fault: { kind: 'status', status: 503, retryAfter: 1 } });
 * proxy.addRule({ path: /^\/file-scans\/[^/]+$/, nth: 3, fault: { kind: 'reset-during-response' } });
 * // ... point the client at proxy.url ...
 * expect(proxy.count({ method: 'POST' })).toBe(3);
 * await proxy.down(2_000); // refuse connections for 2 s (or until proxy.up())
 * await proxy.close();
 * ```
 *
 * Faults (what the client sees / what the target sees):
 * - `reset`: TCP reset as soon as the request head arrives; nothing is forwarded.
 * - `reset-during-upload`: forwarded, then both sides are cut after `afterBytes`
 *   request body bytes (the target sees an aborted upload). A body shorter than
 *   that arrives whole and the connection is reset before the answer.
 * - `reset-during-response`: forwarded in full (the target acts on it), then the
 *   answer is cut after its head plus `afterBytes` body bytes (default: before any byte).
 * - `status`: answered here with `status` (e.g. 500/502/503/429/401) and optional
 *   Retry-After (seconds, a Date, or a raw string) and body; not forwarded.
 * - `delay`: forwarded; the answer is held for `ms` (past a client timeout).
 * - `replace-body`: forwarded; the answer's body is replaced (non-JSON, wrong shape).
 * - `truncate-body`: forwarded; only the first `keepBytes` (default: half) of the
 *   body are sent, with a matching Content-Length (a well-formed but cut answer).
 * - `hold-upload`: forwarded, but the request body stops flowing after `afterBytes`
 *   bytes until `until` settles (`onHeld` is called as the hold starts): the client's
 *   upload stalls on back-pressure, a moment a test can act in (change the file).
 * - `down()`: the listener is closed and open connections are reset, so new
 *   connections are refused until `up()` (or the given time) — same port after.
 *
 * Rules are checked in the order added; the first one that matches and still
 * applies wins. `nth` counts the requests matching the rule's method/path (and `headers`).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { URL } from 'node:url';

export type Fault =
  | { kind: 'reset' }
  | { kind: 'reset-during-upload'; afterBytes: number }
  | { kind: 'reset-during-response'; afterBytes?: number }
  | {
      kind: 'status';
      status: number;
      /** Seconds, an absolute Date (sent as an HTTP-date), a raw header value, or a function giving one per answer. */
      retryAfter?: number | Date | string | (() => number | Date | string);
      /** A string is sent as is, anything else as JSON. Default: a `{code, message}` body. */
      body?: unknown;
      contentType?: string;
      headers?: Record<string, string>;
    }
  | { kind: 'delay'; ms: number }
  | { kind: 'replace-body'; body: unknown; contentType?: string; status?: number }
  | { kind: 'truncate-body'; keepBytes?: number }
  | { kind: 'hold-upload'; afterBytes: number; until: Promise<unknown>; onHeld?: () => void };

export interface FaultRule {
  /** e.g. 'POST'; any method when absent. */
  method?: string;
  /** Exact pathname, a RegExp tested against it, or a predicate; any path when absent. */
  path?: string | RegExp | ((pathname: string) => boolean);
  /** Only requests whose headers pass this test (e.g. one API key); any when absent. */
  headers?: (headers: http.IncomingHttpHeaders) => boolean;
  /** Only the nth matching request(s), 1-based. */
  nth?: number | readonly number[];
  /** Only the first `times` matching requests (default: all). */
  times?: number;
  fault: Fault;
}

export interface RuleHandle {
  /** Requests that matched the rule's method/path so far. */
  readonly matched: number;
  /** Requests the fault was applied to. */
  readonly hits: number;
  remove(): void;
}

export interface ProxiedRequest {
  /** 1-based arrival order. */
  n: number;
  method: string;
  /** Pathname and query as received. */
  url: string;
  pathname: string;
  /** The fault applied, if any. */
  fault: Fault['kind'] | undefined;
  /** The request's Content-Length header, if it had one. */
  contentLength: number | undefined;
  at: number;
  /** The status sent back, once an answer went out (none for a reset or an open request). */
  status?: number;
  /** The answer's body as text (service answers are small JSON) and its headers. */
  answer?: string;
  answerHeaders?: http.OutgoingHttpHeaders;
  /** When the answer went out (Date.now()). */
  answeredAt?: number;
  /** The first bytes of the request body (a submission's attributes part: its reference ties a retry to its first try). */
  bodyHead?: string;
}

/** How much of each request body is kept in `bodyHead`. */
const BODY_HEAD_BYTES = 2048;

export interface RequestFilter {
  method?: string;
  path?: string | RegExp | ((pathname: string) => boolean);
  /** Only faulted (true) or only forwarded-untouched (false) requests. */
  faulted?: boolean;
}

export interface FaultProxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  addRule(rule: FaultRule): RuleHandle;
  clearRules(): void;
  /** Every request received, in order. */
  readonly requests: readonly ProxiedRequest[];
  count(filter?: RequestFilter): number;
  clearLog(): void;
  /** Refuses connections (and resets open ones) until up(), or for `ms` when given. */
  down(ms?: number): Promise<void>;
  up(): Promise<void>;
  readonly isDown: boolean;
  close(): Promise<void>;
}

interface ActiveRule {
  rule: FaultRule;
  matched: number;
  hits: number;
  removed: boolean;
}

const matchesPath = (matcher: FaultRule['path'], pathname: string) => {
  if (matcher === undefined) return true;
  if (typeof matcher === 'string') return matcher === pathname;
  if (matcher instanceof RegExp) return matcher.test(pathname);
  return matcher(pathname);
};

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

const forwardableHeaders = (headers: http.IncomingHttpHeaders) => {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
};

const encodeBody = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body));

/** Resets the TCP connection (RST, not FIN) so the client sees ECONNRESET. */
const reset = (socket: Socket | null | undefined) => {
  if (!socket || socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
};

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const rules: ActiveRule[] = [];
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let arrivals = 0;
  let downTimer: NodeJS.Timeout | undefined;
  let isDown = false;
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const pickFault = (method: string, pathname: string, headers: http.IncomingHttpHeaders): Fault | undefined => {
    let chosen: Fault | undefined;
    for (const active of rules) {
      const { rule } = active;
      if (active.removed) continue;
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (!matchesPath(rule.path, pathname)) continue;
      if (rule.headers && !rule.headers(headers)) continue;
      active.matched++;
      if (chosen) continue;
      const nth = rule.nth === undefined ? undefined : typeof rule.nth === 'number' ? [rule.nth] : rule.nth;
      if (nth && !nth.includes(active.matched)) continue;
      if (rule.times !== undefined && active.hits >= rule.times) continue;
      active.hits++;
      chosen = rule.fault;
    }
    return chosen;
  };

  /** Sends the request upstream; resolves with the whole answer (service answers are small). */
  const forward = (req: IncomingMessage, options: { cutAfterBytes?: number; hold?: Extract<Fault, { kind: 'hold-upload' }> } = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer } | null>((resolve) => {
      const upstream = http.request(
        {
          protocol: targetUrl.protocol,
          hostname: targetUrl.hostname,
          port: targetUrl.port,
          method: req.method,
          path: req.url,
          headers: { ...forwardableHeaders(req.headers), host: targetUrl.host },
          agent,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
          answer.on('error', () => resolve(null));
        },
      );
      upstream.on('error', () => resolve(null));
      let seen = 0;
      let holding = false;
      const { hold } = options;
      req.on('data', (chunk: Buffer) => {
        if (hold && !holding && seen < hold.afterBytes && seen + chunk.length >= hold.afterBytes) {
          // Up to the hold point now, the rest once released; the paused request lets the client's buffers fill.
          const split = hold.afterBytes - seen;
          seen += chunk.length;
          upstream.write(chunk.subarray(0, split));
          holding = true;
          req.pause();
          hold.onHeld?.();
          const release = () => {
            holding = false;
            if (split < chunk.length) upstream.write(chunk.subarray(split));
            req.resume();
          };
          void hold.until.then(release, release);
          return;
        }
        if (options.cutAfterBytes !== undefined && seen + chunk.length >= options.cutAfterBytes) {
          const part = chunk.subarray(0, Math.max(0, options.cutAfterBytes - seen));
          seen = options.cutAfterBytes;
          if (part.length > 0) upstream.write(part);
          // Cut both sides: the target sees an aborted upload, the client a reset.
          upstream.destroy();
          reset(req.socket);
          resolve(null);
          return;
        }
        seen += chunk.length;
        if (!upstream.write(chunk)) req.pause();
      });
      upstream.on('drain', () => {
        if (!holding) req.resume();
      });
      req.on('end', () => upstream.end());
      req.on('error', () => upstream.destroy());
      req.on('close', () => {
        if (!req.complete) upstream.destroy();
      });
    });

  /** Notes what the client is sent, for tests that check the answer as well as the request. */
  const logAnswer = (entry: ProxiedRequest, status: number, headers: http.OutgoingHttpHeaders, body: Buffer | string) => {
    entry.status = status;
    entry.answerHeaders = headers;
    entry.answer = String(body).slice(0, 64 * 1024);
    entry.answeredAt = Date.now();
  };

  const sendAnswer = (res: ServerResponse, entry: ProxiedRequest, answer: { status: number; headers: http.IncomingHttpHeaders; body: Buffer }) => {
    if (res.destroyed) return;
    const headers = forwardableHeaders(answer.headers);
    headers['content-length'] = String(answer.body.length);
    logAnswer(entry, answer.status, headers, answer.body);
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };

  const drain = (req: IncomingMessage) =>
    new Promise<void>((resolve) => {
      if (req.complete) return resolve();
      req.on('end', resolve);
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.resume();
    });

  const apply = async (fault: Fault | undefined, req: IncomingMessage, res: ServerResponse, entry: ProxiedRequest) => {
    if (!fault) {
      const answer = await forward(req);
      if (answer) sendAnswer(res, entry, answer);
      else reset(req.socket);
      return;
    }
    switch (fault.kind) {
      case 'reset':
        reset(req.socket);
        return;
      case 'reset-during-upload':
        await forward(req, { cutAfterBytes: fault.afterBytes });
        reset(req.socket);
        return;
      case 'reset-during-response': {
        const answer = await forward(req);
        const keep = Math.min(fault.afterBytes ?? 0, answer?.body.length ?? 0);
        if (!answer || keep === 0 || res.destroyed) {
          reset(req.socket);
          return;
        }
        res.writeHead(answer.status, { ...forwardableHeaders(answer.headers), 'content-length': String(answer.body.length) });
        res.write(answer.body.subarray(0, keep), () => reset(req.socket));
        return;
      }
      case 'status': {
        await drain(req);
        if (res.destroyed) return;
        const headers: http.OutgoingHttpHeaders = { ...fault.headers };
        if (fault.retryAfter !== undefined) {
          const retryAfter = typeof fault.retryAfter === 'function' ? fault.retryAfter() : fault.retryAfter;
          headers['retry-after'] = retryAfter instanceof Date ? retryAfter.toUTCString() : typeof retryAfter === 'number' ? String(retryAfter) : retryAfter;
        }
        const body = encodeBody(fault.body ?? { code: `injected_${fault.status}`, message: `Injected HTTP ${fault.status}.` });
        headers['content-type'] = fault.contentType ?? (typeof fault.body === 'string' ? 'text/plain' : 'application/json');
        headers['content-length'] = String(Buffer.byteLength(body));
        logAnswer(entry, fault.status, headers, body);
        res.writeHead(fault.status, headers);
        res.end(body);
        return;
      }
      case 'delay': {
        const answer = await forward(req);
        later(fault.ms, () => {
          if (answer) sendAnswer(res, entry, answer);
          else reset(req.socket);
        });
        return;
      }
      case 'replace-body': {
        const answer = await forward(req);
        if (!answer) return reset(req.socket);
        const body = Buffer.from(encodeBody(fault.body));
        sendAnswer(res, entry, {
          status: fault.status ?? answer.status,
          headers: { ...answer.headers, 'content-type': fault.contentType ?? (typeof fault.body === 'string' ? 'text/html' : 'application/json') },
          body,
        });
        return;
      }
      case 'truncate-body': {
        const answer = await forward(req);
        if (!answer) return reset(req.socket);
        const keep = fault.keepBytes ?? Math.floor(answer.body.length / 2);
        sendAnswer(res, entry, { ...answer, body: answer.body.subarray(0, keep) });
        return;
      }
      case 'hold-upload': {
        const answer = await forward(req, { hold: fault });
        if (answer) sendAnswer(res, entry, answer);
        else reset(req.socket);
        return;
      }
    }
  };

  const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const pathname = new URL(req.url ?? '/', 'http://proxy').pathname;
    const fault = pickFault(method, pathname, req.headers);
    const length = req.headers['content-length'];
    const entry: ProxiedRequest = {
      n: ++arrivals,
      method,
      url: req.url ?? '/',
      pathname,
      fault: fault?.kind,
      contentLength: length === undefined ? undefined : Number(length),
      at: Date.now(),
    };
    requests.push(entry);
    const keepHead = (chunk: Buffer) => {
      const room = BODY_HEAD_BYTES - (entry.bodyHead?.length ?? 0);
      if (room > 0) entry.bodyHead = (entry.bodyHead ?? '') + chunk.subarray(0, room).toString('latin1');
      else req.off('data', keepHead);
    };
    req.on('data', keepHead);
    res.on('error', () => {});
    req.on('error', () => {});
    apply(fault, req, res, entry).catch(() => reset(req.socket));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });

  await listen(0);
  const port = (server.address() as AddressInfo).port;

  const up = async () => {
    if (downTimer) clearTimeout(downTimer);
    downTimer = undefined;
    if (!isDown || closed) return;
    await listen(port);
    isDown = false;
  };

  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) reset(socket);
    });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    addRule(rule) {
      const active: ActiveRule = { rule, matched: 0, hits: 0, removed: false };
      rules.push(active);
      return {
        get matched() {
          return active.matched;
        },
        get hits() {
          return active.hits;
        },
        remove() {
          active.removed = true;
        },
      };
    },
    clearRules() {
      for (const active of rules) active.removed = true;
      rules.length = 0;
    },
    requests,
    count(filter = {}) {
      return requests.filter(
        (r) =>
          (!filter.method || filter.method.toUpperCase() === r.method) &&
          matchesPath(filter.path, r.pathname) &&
          (filter.faulted === undefined || filter.faulted === (r.fault !== undefined)),
      ).length;
    },
    clearLog() {
      requests.length = 0;
    },
    async down(ms) {
      if (!isDown && !closed) {
        isDown = true;
        await stopListening();
      }
      if (ms !== undefined) {
        if (downTimer) clearTimeout(downTimer);
        downTimer = setTimeout(() => void up().catch(() => {}), ms);
      }
    },
    up,
    get isDown() {
      return isDown;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (downTimer) clearTimeout(downTimer);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (!isDown) await stopListening();
      agent.destroy();
    },
  };
}

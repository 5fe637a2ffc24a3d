// Sends webhook events: a signed POST per status change, retried with
// exponential backoff up to a bounded number of attempts. Events of one scan
// are delivered in order (processing before completed/failed); delivery never
// blocks scanning. With an outbox, each event is stored when it is sent (inside
// the caller's transaction) and removed when delivered or given up on; what is
// left at shutdown or after a crash goes out on the next start (`resume`).
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Scan } from '../../../shared/service-contract/scan.ts';
import { isoNow } from '../clock.ts';
import type { ServiceLogger } from '../logger.ts';
import { signWebhook, webhookKeyOf } from './signature.ts';
import type { OutboxEntry, WebhookOutbox } from './webhook-outbox.ts';

export type WebhookEventType = 'file_scan.processing' | 'file_scan.completed' | 'file_scan.failed';

export interface WebhookEvent {
  type: WebhookEventType;
  timestamp: string;
  data: Scan;
}

export interface WebhookOptions {
  url: string;
  /** `whsec_<base64>` or a raw string; see signature.ts. */
  secret: string;
  /** Attempts per event, including the first (default 6). */
  maxAttempts?: number;
  /** Wait before the first retry; doubles each time (default 1 s, capped at 5 min). */
  initialBackoffMs?: number;
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
}

export interface WebhookSender {
  /** Synchronous up to the outbox write, so a caller's transaction covers it. */
  send(type: WebhookEventType, scan: Scan): void;
  /** Delivers what an earlier run left in the outbox (call once, at start). */
  resume(): number;
  /** Abandons pending retries and waits for in-flight attempts to stop. */
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 5 * 60_000;

/** An event to deliver; `seq` when it is stored in the outbox. */
type Delivery = Omit<OutboxEntry, 'seq'> & { seq?: number };

export function eventTypeOf(scan: Scan): WebhookEventType {
  return `file_scan.${scan.status}`;
}

export function createWebhookSender(options: WebhookOptions, logger: ServiceLogger, outbox?: WebhookOutbox): WebhookSender {
  const url = new URL(options.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('The webhook URL must be http(s).');
  const key = webhookKeyOf(options.secret);
  const maxAttempts = options.maxAttempts ?? 6;
  const initialBackoffMs = options.initialBackoffMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const stop = new AbortController();
  // Our own connection pool, so close() leaves no sockets behind. undici loads with the first sender (a service without webhooks never loads it).
  const undici = import('undici');
  const pool = undici.then(({ Agent }) => new Agent({ connections: 4 }));
  /** The tail of each scan's delivery chain, so its events go out in order. */
  const chains = new Map<string, Promise<void>>();

  async function deliver(entry: Delivery): Promise<void> {
    const { body, messageId } = entry;
    const event = { scanId: entry.scanId, messageId };
    const done = () => {
      if (entry.seq !== undefined) outbox?.remove(entry.seq);
    };
    for (let attempt = 1; attempt <= maxAttempts && !stop.signal.aborted; attempt++) {
      // Signed per attempt: the timestamp is when this attempt was made.
      const timestamp = Math.floor(Date.now() / 1000);
      try {
        const [{ request }, dispatcher] = await Promise.all([undici, pool]);
        const response = await request(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'verdict-local-service',
            'webhook-id': messageId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(key, messageId, timestamp, body),
          },
          body,
          dispatcher,
          signal: AbortSignal.any([stop.signal, AbortSignal.timeout(timeoutMs)]),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        await response.body.dump();
        if (response.statusCode >= 200 && response.statusCode < 300) return done();
        logger.warn({ ...event, status: response.statusCode, attempt }, 'webhook rejected');
      } catch (error) {
        // Stopping: the event stays in the outbox for the next start.
        if (stop.signal.aborted) return;
        logger.warn({ ...event, attempt, err: String(error) }, 'webhook delivery failed');
      }
      if (attempt < maxAttempts) {
        const wait = Math.min(MAX_BACKOFF_MS, initialBackoffMs * 2 ** (attempt - 1));
        await delay(wait, undefined, { signal: stop.signal }).catch(() => {});
      }
    }
    if (stop.signal.aborted) return;
    logger.error(event, 'webhook given up');
    done();
  }

  /** Queues the delivery behind the scan's earlier events. */
  function chain(entry: Delivery): void {
    const previous = chains.get(entry.scanId) ?? Promise.resolve();
    const next = previous.then(() => deliver(entry)).catch(() => {});
    chains.set(entry.scanId, next);
    void next.finally(() => {
      if (chains.get(entry.scanId) === next) chains.delete(entry.scanId);
    });
  }

  return {
    send(type, scan) {
      if (stop.signal.aborted) return;
      const event: WebhookEvent = { type, timestamp: isoNow(), data: scan };
      // The same id on every retry (and after a restart) lets the receiver de-duplicate.
      const fields = { messageId: `msg_${randomUUID()}`, scanId: scan.id, body: JSON.stringify(event) };
      chain(outbox ? outbox.add(fields) : fields);
    },
    resume() {
      if (!outbox) return 0;
      const pending = outbox.pending();
      for (const entry of pending) chain(entry);
      return pending.length;
    },
    async close() {
      stop.abort();
      await Promise.allSettled([...chains.values()]);
      await (await pool).destroy();
    },
  };
}

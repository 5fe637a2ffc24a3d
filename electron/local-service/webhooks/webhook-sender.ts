// Sends webhook events: a signed POST per status change, retried with
// exponential backoff up to a bounded number of attempts. Events of one scan
// are delivered in order (processing before completed/failed); delivery never
// blocks scanning. Pending deliveries live in memory only.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { Scan } from '../../../shared/service-contract/scan.ts';
import { isoNow } from '../clock.ts';
import type { ServiceLogger } from '../logger.ts';
import { signWebhook, webhookKeyOf } from './signature.ts';

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
  send(type: WebhookEventType, scan: Scan): void;
  /** Abandons pending retries and waits for in-flight attempts to stop. */
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 5 * 60_000;

export function eventTypeOf(scan: Scan): WebhookEventType {
  return `file_scan.${scan.status}`;
}

export function createWebhookSender(options: WebhookOptions, logger: ServiceLogger): WebhookSender {
  const url = new URL(options.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('The webhook URL must be http(s).');
  const key = webhookKeyOf(options.secret);
  const maxAttempts = options.maxAttempts ?? 6;
  const initialBackoffMs = options.initialBackoffMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const stop = new AbortController();
  // Our own connection pool, so close() leaves no sockets behind.
  const dispatcher = new Agent({ connections: 4 });
  /** The tail of each scan's delivery chain, so its events go out in order. */
  const chains = new Map<string, Promise<void>>();

  async function deliver(event: WebhookEvent): Promise<void> {
    const body = JSON.stringify(event);
    // The same id on every retry lets the receiver de-duplicate.
    const messageId = `msg_${randomUUID()}`;
    for (let attempt = 1; attempt <= maxAttempts && !stop.signal.aborted; attempt++) {
      // Signed per attempt: the timestamp is when this attempt was made.
      const timestamp = Math.floor(Date.now() / 1000);
      try {
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
        if (response.statusCode >= 200 && response.statusCode < 300) return;
        logger.warn({ type: event.type, scanId: event.data.id, status: response.statusCode, attempt }, 'webhook rejected');
      } catch (error) {
        if (stop.signal.aborted) return;
        logger.warn({ type: event.type, scanId: event.data.id, attempt, err: String(error) }, 'webhook delivery failed');
      }
      if (attempt < maxAttempts) {
        const wait = Math.min(MAX_BACKOFF_MS, initialBackoffMs * 2 ** (attempt - 1));
        await delay(wait, undefined, { signal: stop.signal }).catch(() => {});
      }
    }
    if (!stop.signal.aborted) logger.error({ type: event.type, scanId: event.data.id }, 'webhook given up');
  }

  return {
    send(type, scan) {
      if (stop.signal.aborted) return;
      const event: WebhookEvent = { type, timestamp: isoNow(), data: scan };
      const previous = chains.get(scan.id) ?? Promise.resolve();
      const next = previous.then(() => deliver(event)).catch(() => {});
      chains.set(scan.id, next);
      void next.finally(() => {
        if (chains.get(scan.id) === next) chains.delete(scan.id);
      });
    },
    async close() {
      stop.abort();
      await Promise.allSettled([...chains.values()]);
      await dispatcher.destroy();
    },
  };
}

// Webhook events: one signed POST per status change, checked by the
// independent `standardwebhooks` package on a real receiving HTTP server.
// Undelivered events survive a stop and a SIGKILL (the outbox in the service's SQLite).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { asyncSubmissionSchema, scanSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { startLocalService } from '../../../electron/local-service/server.ts';
import { BuiltinEngine } from '../../../electron/engine/builtin-engine.ts';
import { useCleanups } from '../../support/cleanups.ts';
import { startServiceProcess } from '../../support/service-process.ts';
import { FailingEngine, KEY_A, startTestService, submit, waitFor, type TestService } from './harness.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  /** Accepted requests. */
  deliveries: Delivery[];
  /** Every request, accepted or not. */
  attempts: Delivery[];
  /** While false, every request is answered 503. */
  accepting: boolean;
  close(): Promise<void>;
}

/** A receiver that answers 500 to the first `failFirst` requests, then 204 (503 while not `accepting`). */
async function startReceiver(failFirst = 0): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const attempts: Delivery[] = [];
  let seen = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen++;
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      attempts.push(delivery);
      if (!receiverState.accepting) {
        res.writeHead(503).end();
        return;
      }
      if (seen <= failFirst) {
        res.writeHead(500).end();
        return;
      }
      deliveries.push(delivery);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiverState: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    attempts,
    accepting: true,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiverState;
}

const idOf = (delivery: Delivery) => String(delivery.headers['webhook-id']);

const headersOf = (delivery: Delivery) => ({
  'webhook-id': String(delivery.headers['webhook-id']),
  'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
  'webhook-signature': String(delivery.headers['webhook-signature']),
});

let service: TestService | null = null;
let receiver: Receiver | null = null;
afterEach(async () => {
  await service?.close();
  await receiver?.close();
  service = null;
  receiver = null;
});

describe('webhooks', () => {
  it('sends processing then completed, signed per Standard Webhooks (whsec_ secret)', async () => {
    receiver = await startReceiver();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    service = await startTestService({ webhook: { url: receiver.url, secret } });
    const reference = 'orders/42:v1';
    const submission = asyncSubmissionSchema.parse((await submit(service.url, { attributes: { file_name: 'a.txt', external_reference_id: reference } })).body);

    const deliveries = await waitFor(async () => (receiver!.deliveries.length >= 2 ? receiver!.deliveries : null), 'two webhook deliveries');
    const verifier = new Webhook(secret);
    const events = deliveries.map((delivery) => verifier.verify(delivery.body, headersOf(delivery)) as Record<string, unknown>);
    expect(events.map((event) => event.type)).toEqual(['file_scan.processing', 'file_scan.completed']);
    for (const event of events) {
      expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const data = scanSchema.parse(event.data);
      expect(data).toMatchObject({ id: submission.id, external_reference_id: reference, execution_mode: 'async' });
    }
    expect(terminalScanSchema.parse(events[1]?.data).result?.safe).toBe(true);
    expect(deliveries[0]?.headers['content-type']).toBe('application/json');
    expect(deliveries[0]?.headers['webhook-id']).not.toBe(deliveries[1]?.headers['webhook-id']);

    // The check can fail: a wrong secret or a tampered body does not verify.
    const wrong = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
    expect(() => wrong.verify(deliveries[0]!.body, headersOf(deliveries[0]!))).toThrow();
    expect(() => verifier.verify(deliveries[0]!.body.replace('processing', 'completed'), headersOf(deliveries[0]!))).toThrow();
  });

  it('signs with the raw bytes of a secret without the whsec_ prefix, and reports failed scans', async () => {
    receiver = await startReceiver();
    const secret = 'a plain shared secret';
    service = await startTestService({ webhook: { url: receiver.url, secret }, engine: new FailingEngine() });
    const reply = await submit(service.url, { mode: 'sync', attributes: { file_name: 'x' } });
    expect(reply.body.status).toBe('failed');

    const deliveries = await waitFor(async () => (receiver!.deliveries.length >= 2 ? receiver!.deliveries : null), 'two webhook deliveries');
    const verifier = new Webhook(secret, { format: 'raw' });
    const events = deliveries.map((delivery) => verifier.verify(delivery.body, headersOf(delivery)) as Record<string, unknown>);
    expect(events.map((event) => event.type)).toEqual(['file_scan.processing', 'file_scan.failed']);
    const failed = terminalScanSchema.parse(events[1]?.data);
    expect(failed).toMatchObject({ status: 'failed', execution_mode: 'sync', error: { code: 'engine_unavailable' } });
    expect(failed.result).toBeUndefined();
    expect(events[0]?.data).not.toHaveProperty('external_reference_id');
  });

  it('retries a rejected delivery with the same webhook-id, newly signed', async () => {
    receiver = await startReceiver(2);
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    service = await startTestService({ webhook: { url: receiver.url, secret, initialBackoffMs: 20, maxAttempts: 5 } });
    const submission = asyncSubmissionSchema.parse((await submit(service.url, { attributes: { file_name: 'r.txt' } })).body);

    const deliveries = await waitFor(async () => (receiver!.deliveries.length >= 2 ? receiver!.deliveries : null), 'deliveries after retries');
    const verifier = new Webhook(secret);
    const events = deliveries.map((delivery) => verifier.verify(delivery.body, headersOf(delivery)) as { type: string; data: { id: string } });
    // Order is kept per scan even though the first event needed three attempts.
    expect(events.map((event) => event.type)).toEqual(['file_scan.processing', 'file_scan.completed']);
    expect(events.every((event) => event.data.id === submission.id)).toBe(true);
  });

  it('refuses a whsec_ secret that is not base64', async () => {
    await expect(startTestService({ webhook: { url: 'http://127.0.0.1:9/x', secret: 'whsec_not base64!' } })).rejects.toThrow(/base64/);
  });
});

describe('webhook events nobody has received yet', () => {
  const onCleanup = useCleanups();
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verdict-webhook-outbox-'));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  /** The webhook-ids waiting in the service's outbox, oldest first (read while the service runs or after). */
  const outboxIds = (dir: string) => {
    const db = new DatabaseSync(join(dir, 'local-service.sqlite'), { readOnly: true });
    try {
      return (db.prepare('SELECT message_id FROM webhook_outbox ORDER BY seq').all() as Array<{ message_id: string }>).map((row) => row.message_id);
    } finally {
      db.close();
    }
  };

  it('are delivered after a restart, in order, under the webhook-id of their first attempt, once', async () => {
    receiver = await startReceiver();
    receiver.accepting = false;
    const dir = await dataDir();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    // A long backoff: after one refused attempt at `processing` (`completed` waits behind it), both wait in the outbox.
    const webhook = { url: receiver.url, secret, initialBackoffMs: 60_000 };
    const first = await startLocalService({ apiKeys: [KEY_A], dataDir: dir, engine: new BuiltinEngine(), webhook });
    const reply = await submit(first.url, { mode: 'sync', attributes: { file_name: 'kept.txt' } });
    expect(reply.body.status).toBe('completed');
    await waitFor(async () => receiver!.attempts.length > 0, 'an attempt at the processing event');
    await first.close();
    const owed = outboxIds(dir);
    expect(owed).toHaveLength(2);
    expect(owed[0]).toBe(idOf(receiver.attempts[0]!));

    receiver.accepting = true;
    const second = await startLocalService({ apiKeys: [KEY_A], dataDir: dir, engine: new BuiltinEngine(), webhook });
    try {
      const deliveries = await waitFor(async () => (receiver!.deliveries.length >= 2 ? receiver!.deliveries : null), 'both events after the restart');
      const verifier = new Webhook(secret);
      const events = deliveries.map((d) => verifier.verify(d.body, headersOf(d)) as { type: string; data: { id: string; status: string } });
      expect(events.map((e) => e.type)).toEqual(['file_scan.processing', 'file_scan.completed']);
      expect(events.map((e) => e.data.status)).toEqual(['processing', 'completed']);
      expect(events.every((e) => e.data.id === reply.body.id)).toBe(true);
      expect(deliveries.map(idOf)).toEqual(owed);
      await waitFor(async () => outboxIds(dir).length === 0, 'the outbox to empty');
    } finally {
      await second.close();
    }
    expect(receiver.deliveries).toHaveLength(2);
  });

  it('survive a SIGKILL of the service process: the completed event goes out after the restart', async () => {
    receiver = await startReceiver();
    receiver.accepting = false;
    const dir = await dataDir();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const args = ['--webhook-url', receiver.url, '--webhook-secret', secret];
    const first = await startServiceProcess({ apiKeys: [KEY_A], dataDir: dir, args });
    let id: unknown;
    try {
      const reply = await submit(first.url, { mode: 'sync', attributes: { file_name: 'killed.txt' } });
      expect(reply.body.status).toBe('completed');
      id = reply.body.id;
      // Killed while both events are owed: `processing` refused once, `completed` waiting behind it.
      await waitFor(async () => receiver!.attempts.length > 0 && outboxIds(dir).length === 2, 'both events in the outbox');
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }

    receiver.accepting = true;
    const second = await startServiceProcess({ apiKeys: [KEY_A], dataDir: dir, args });
    try {
      const deliveries = await waitFor(async () => (receiver!.deliveries.length >= 2 ? receiver!.deliveries : null), 'both events after the restart', 30_000);
      const verifier = new Webhook(secret);
      const events = deliveries.map((d) => verifier.verify(d.body, headersOf(d)) as { type: string; data: { id: string } });
      expect(events.map((e) => e.type)).toEqual(['file_scan.processing', 'file_scan.completed']);
      expect(events.every((e) => e.data.id === id)).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('are dropped, with a warning, when the service starts with webhooks off', async () => {
    receiver = await startReceiver();
    receiver.accepting = false;
    const dir = await dataDir();
    const webhook = { url: receiver.url, secret: 'a plain shared secret', initialBackoffMs: 60_000 };
    const first = await startLocalService({ apiKeys: [KEY_A], dataDir: dir, engine: new BuiltinEngine(), webhook });
    await submit(first.url, { mode: 'sync', attributes: { file_name: 'off.txt' } });
    await waitFor(async () => receiver!.attempts.length > 0, 'an attempt at the processing event');
    await first.close();
    expect(outboxIds(dir)).toHaveLength(2);

    const warnings: string[] = [];
    const logger = { info() {}, warn: (_fields: object, message: string) => void warnings.push(message), error() {} };
    const second = await startLocalService({ apiKeys: [KEY_A], dataDir: dir, engine: new BuiltinEngine(), logger });
    await second.close();
    expect(outboxIds(dir)).toEqual([]);
    expect(warnings).toContain('webhooks are off: undelivered webhook events dropped');
  });
});

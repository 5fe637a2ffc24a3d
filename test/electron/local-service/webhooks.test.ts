// Webhook events: one signed POST per status change, checked by the
// independent `standardwebhooks` package on a real receiving HTTP server.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { asyncSubmissionSchema, scanSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { FailingEngine, startTestService, submit, waitFor, type TestService } from './harness.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}

/** A receiver that answers 500 to the first `failFirst` requests, then 204. */
async function startReceiver(failFirst = 0): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  let seen = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen++;
      if (seen <= failFirst) {
        res.writeHead(500).end();
        return;
      }
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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

// Transient failures between the client and the real local service, injected
// by the fault proxy: the client retries, honours Retry-After, and a retried
// POST never creates a second scan.
import { describe, expect, it } from 'vitest';
import type { ServiceError } from '../../../electron/service-client/client.ts';
import { newRef, rejection, useFixture, type Fixture } from './fixture.ts';

let fx: Fixture;
useFixture((started) => (fx = started));

const collectRetries = () => {
  const events: { error: ServiceError; attempt: number; delayMs: number }[] = [];
  return { events, onRetry: (event: (typeof events)[number]) => events.push(event) };
};

describe('retryable statuses', () => {
  it('503 twice, then success: three POSTs, one scan', async () => {
    const file = await fx.file('r503.txt', 'r503');
    fx.proxy.addRule({ method: 'POST', times: 2, fault: { kind: 'status', status: 503 } });
    const { events, onRetry } = collectRetries();
    const resolved = await fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('503'), onRetry });
    expect(resolved.via).toBe('submitted');
    expect(resolved.retries).toBe(2);
    expect(events.map((e) => e.error.kind)).toEqual(['server_error', 'server_error']);
    expect(fx.proxy.count({ method: 'POST' })).toBe(3);
    expect(fx.scansAtService('r503.txt')).toBe(1);
  });

  it('500 and 502 on a GET are retried', async () => {
    const file = await fx.file('r50x.txt', 'r50x');
    const ref = newRef('50x');
    await fx.client().submitAsync(file, { external_reference_id: ref });
    fx.proxy.addRule({ method: 'GET', nth: 1, fault: { kind: 'status', status: 500 } });
    fx.proxy.addRule({ method: 'GET', nth: 2, fault: { kind: 'status', status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' } });
    const scan = await fx.client().recoverByReference(ref);
    expect(scan?.external_reference_id).toBe(ref);
    expect(fx.proxy.count({ method: 'GET' })).toBe(3);
  });

  it('503 with Retry-After waits at least that long', async () => {
    const file = await fx.file('r503ra.txt', 'ra');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'status', status: 503, retryAfter: 1 } });
    const { events, onRetry } = collectRetries();
    await fx.client().submitAndResolve(file, { mode: 'sync', externalReferenceId: newRef('503ra'), onRetry });
    expect(events).toHaveLength(1);
    expect(events[0]!.error.retryAfterMs).toBe(1000);
    expect(events[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(fx.proxy.count({ method: 'POST' })).toBe(2);
  });

  it('429 with Retry-After in seconds', async () => {
    const file = await fx.file('r429s.txt', '429s');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'status', status: 429, retryAfter: 1 } });
    const { events, onRetry } = collectRetries();
    const resolved = await fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('429s'), onRetry });
    expect(resolved.via).toBe('submitted');
    expect(events.map((e) => e.error.kind)).toEqual(['rate_limited']);
    expect(events[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(fx.proxy.count({ method: 'POST' })).toBe(2);
  });

  it('429 with Retry-After as an HTTP date', async () => {
    const file = await fx.file('r429d.txt', '429d');
    // HTTP dates have whole seconds: 2 s ahead is at least 1 s ahead once formatted.
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'status', status: 429, retryAfter: new Date(Date.now() + 2000) } });
    const { events, onRetry } = collectRetries();
    const resolved = await fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('429d'), onRetry });
    expect(resolved.via).toBe('submitted');
    expect(events).toHaveLength(1);
    expect(events[0]!.error.retryAfterMs).toBeGreaterThan(0);
    expect(events[0]!.delayMs).toBeGreaterThanOrEqual(events[0]!.error.retryAfterMs!);
    expect(fx.proxy.count({ method: 'POST' })).toBe(2);
  });

  it('gives up after the attempts and throws the last retryable error', async () => {
    const file = await fx.file('always503.txt', 'x');
    fx.proxy.addRule({ method: 'POST', fault: { kind: 'status', status: 503 } });
    const error = await rejection(
      fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('always'), retry: { maxAttempts: 4 } }),
      'server_error',
    );
    expect(error.retryable).toBe(true);
    expect(fx.proxy.count({ method: 'POST' })).toBe(4);
    expect(fx.scansAtService('always503.txt')).toBe(0);
  });

  it('a Retry-After beyond the limit ends the retries at once (the pipeline requeues)', async () => {
    const file = await fx.file('longwait.txt', 'x');
    fx.proxy.addRule({ method: 'POST', fault: { kind: 'status', status: 503, retryAfter: 3600 } });
    const error = await rejection(fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('long') }), 'server_error');
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(fx.proxy.count({ method: 'POST' })).toBe(1);
  });
});

describe('broken connections', () => {
  it('reset before any byte: retried, exactly one scan', async () => {
    const file = await fx.file('reset-before.txt', 'rb');
    const ref = newRef('reset-before');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'reset' } });
    const { events, onRetry } = collectRetries();
    const resolved = await fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: ref, onRetry });
    expect(events.map((e) => e.error.kind)).toEqual(['network']);
    expect(resolved.via).toBe('submitted');
    expect(fx.proxy.count({ method: 'POST' })).toBe(2);
    expect((await fx.client().getByReference(ref)).id).toBe(resolved.scan.id);
    expect(fx.scansAtService('reset-before.txt')).toBe(1);
  });

  it('reset during the upload: retried, exactly one scan', async () => {
    const file = await fx.file('reset-upload.bin', 2 * 1024 * 1024);
    const ref = newRef('reset-upload');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'reset-during-upload', afterBytes: 300_000 } });
    const progress: { sent: number; attempt: number }[] = [];
    const resolved = await fx.client().submitAndResolve(file, {
      mode: 'sync',
      externalReferenceId: ref,
      onProgress: ({ sent, attempt }) => progress.push({ sent, attempt }),
    });
    expect(resolved.via).toBe('submitted');
    expect(resolved.scan.status).toBe('completed');
    expect(resolved.retries).toBe(1);
    expect(fx.proxy.count({ method: 'POST' })).toBe(2);
    expect(progress.at(-1)?.attempt).toBe(2);
    expect((await fx.client().getByReference(ref)).id).toBe(resolved.scan.id);
    expect(fx.scansAtService('reset-upload.bin')).toBe(1);
  });

  it('reset during the response of a POST that created the scan: the retry adopts it', async () => {
    const file = await fx.file('reset-response.txt', 'rr');
    const ref = newRef('reset-response');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'reset-during-response', afterBytes: 20 } });
    const resolved = await fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: ref });
    expect(resolved.via).toBe('adopted');
    expect(fx.scansAtService('reset-response.txt')).toBe(1);
  });

  it('an answer slower than the timeout: retried, and the retry adopts the first scan', async () => {
    const file = await fx.file('slow.txt', 'slow');
    const ref = newRef('slow');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'delay', ms: 3000 } });
    const { events, onRetry } = collectRetries();
    const resolved = await fx.client({ timeouts: { headersMs: 300 } }).submitAndResolve(file, { mode: 'async', externalReferenceId: ref, onRetry });
    expect(events.map((e) => e.error.kind)).toEqual(['timeout']);
    expect(resolved.via).toBe('adopted');
    expect(fx.scansAtService('slow.txt')).toBe(1);
  });

  it('service down for a while, then back', async () => {
    const file = await fx.file('down.txt', 'down');
    await fx.proxy.down(700);
    const { events, onRetry } = collectRetries();
    const resolved = await fx.client({ retry: { maxAttempts: 12 } }).submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('down'), onRetry });
    expect(resolved.via).toBe('submitted');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.error.kind === 'network' && e.error.code === 'ECONNREFUSED')).toBe(true);
    expect(fx.scansAtService('down.txt')).toBe(1);
  });

  it('without a reference a POST is not retried (it could scan twice)', async () => {
    const file = await fx.file('noref.txt', 'noref');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'reset' } });
    await rejection(fx.client().submitAndResolve(file, { mode: 'async' }), 'network');
    expect(fx.proxy.count({ method: 'POST' })).toBe(1);
  });

  it('a 408 without file_scan_id (a proxy timeout) is a retryable timeout', async () => {
    const file = await fx.file('proxy408.txt', 'p408');
    fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'status', status: 408, body: '<html>Request Timeout</html>' } });
    const resolved = await fx.client().submitAndResolve(file, { mode: 'sync', externalReferenceId: newRef('p408') });
    expect(resolved.via).toBe('submitted');
    expect(fx.proxy.count({ method: 'POST' })).toBe(2);
  });
});

// Following scans to the end: the 408 continuation, the poller's backoff and
// lifecycle, and the global request budget, against a local service whose
// scans take a while (scanDelayMs) so they stay `processing` for real.
import { describe, expect, it } from 'vitest';
import { createPoller, type PollError, type PollUpdate } from '../../../electron/service-client/poller.ts';
import { createRequestBudget } from '../../../electron/request-budget/request-budget.ts';
import { newRef, useFixture, waitFor, type Fixture } from './fixture.ts';

let fx: Fixture;
useFixture((started) => (fx = started), { scanDelayMs: 1500, syncWindowMs: 300, scanConcurrency: 32 });

describe('408 continuation', () => {
  it('a sync scan that outlasts the window comes back processing, and the poller brings it to completed', async () => {
    const client = fx.client();
    const file = await fx.file('slow-sync.txt', 'takes a while');
    const ref = newRef('408');
    const resolved = await client.submitAndResolve(file, { mode: 'sync', externalReferenceId: ref });
    expect(resolved.via).toBe('sync_timeout');
    expect(resolved.scan.status).toBe('processing');
    expect(resolved.scan.external_reference_id).toBe(ref);
    // One POST (the 408), then one GET of the scan it named; never a second POST.
    expect(fx.proxy.count({ method: 'POST' })).toBe(1);
    expect(fx.proxy.count({ method: 'GET', path: `/file-scans/${resolved.scan.id}` })).toBe(1);

    const updates: PollUpdate[] = [];
    const poller = createPoller({ client, onUpdate: (u) => updates.push(u), initialDelayMs: 200, maxDelayMs: 800 });
    try {
      poller.track(resolved.scan.id, ref);
      const last = await waitFor(() => updates.find((u) => u.terminal));
      expect(last.scan.status).toBe('completed');
      expect(last.scan.result?.safe).toBe(true);
      expect(poller.isTracking(resolved.scan.id)).toBe(false);
      expect(fx.scansAtService('slow-sync.txt')).toBe(1);
    } finally {
      await poller.stop();
    }
  });
});

describe('poller', () => {
  it('follows many async scans to the end with few requests each', async () => {
    const client = fx.client();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const file = await fx.file(`many-${i}.txt`, `file ${i}`);
      ids.push((await client.submitAsync(file, { external_reference_id: newRef(`many-${i}`) })).id);
    }
    fx.proxy.clearLog();
    const terminal = new Map<string, PollUpdate>();
    const poller = createPoller({ client, onUpdate: (u) => u.terminal && terminal.set(u.scanId, u) });
    try {
      for (const id of ids) poller.track(id);
      await waitFor(() => terminal.size === ids.length);
      for (const update of terminal.values()) {
        expect(update.scan.status).toBe('completed');
        // 1.5 s scans with 1 s doubling (±20 %): 2 or 3 polls (4 leaves room for a loaded machine).
        expect(update.polls).toBeLessThanOrEqual(4);
      }
      expect(fx.proxy.count({ method: 'GET' })).toBe([...terminal.values()].reduce((sum, u) => sum + u.polls, 0));
      expect(poller.size).toBe(0);
    } finally {
      await poller.stop();
    }
  });

  it('polls a woken scan at once instead of at its next backoff step, and says when it follows no such scan', async () => {
    const client = fx.client();
    const file = await fx.file('woken.txt', 'the service rang');
    const id = (await client.submitAsync(file, { external_reference_id: newRef('woken') })).id;
    // Read directly until the service has finished it (what its doorbell would say).
    await waitFor(async () => (await client.getScan(id)).status !== 'processing', { timeoutMs: 10_000 });
    fx.proxy.clearLog();
    const updates: PollUpdate[] = [];
    // Without the wake-up, the first poll would come in ten minutes.
    const poller = createPoller({ client, onUpdate: (u) => updates.push(u), initialDelayMs: 600_000, maxDelayMs: 600_000 });
    try {
      poller.track(id);
      expect(poller.wake('00000000-0000-4000-8000-00000000beef')).toBe(false);
      expect(poller.wake(id)).toBe(true);
      const last = await waitFor(() => updates.find((u) => u.terminal), { timeoutMs: 5_000 });
      expect(last.scan.status).toBe('completed');
      expect(last.polls).toBe(1);
      expect(fx.proxy.count({ method: 'GET', path: `/file-scans/${id}` })).toBe(1);
      expect(poller.wake(id)).toBe(false);
    } finally {
      await poller.stop();
    }
  });

  it('gives up on an unknown scan (404) with a final error', async () => {
    const errors: PollError[] = [];
    const poller = createPoller({ client: fx.client(), onUpdate: () => {}, onError: (e) => errors.push(e), initialDelayMs: 10 });
    try {
      poller.track('00000000-0000-4000-8000-00000000dead');
      const error = await waitFor(() => errors[0]);
      expect(error.error.kind).toBe('not_found');
      expect(error.final).toBe(true);
      expect(poller.size).toBe(0);
    } finally {
      await poller.stop();
    }
  });

  it('keeps polling through transient errors with backoff', async () => {
    const client = fx.client();
    const file = await fx.file('transient.txt', 'transient');
    const { id } = await client.submitAsync(file, { external_reference_id: newRef('transient') });
    fx.proxy.addRule({ method: 'GET', times: 2, fault: { kind: 'status', status: 503 } });
    const errors: PollError[] = [];
    let done: PollUpdate | undefined;
    const poller = createPoller({
      client,
      onUpdate: (u) => (done = u.terminal ? u : done),
      onError: (e) => errors.push(e),
      initialDelayMs: 50,
      maxDelayMs: 400,
    });
    try {
      poller.track(id);
      await waitFor(() => done);
      expect(errors.map((e) => [e.error.kind, e.final])).toEqual([
        ['server_error', false],
        ['server_error', false],
      ]);
    } finally {
      await poller.stop();
    }
  });

  it('pause holds every poll, untrack and stop end them', async () => {
    const client = fx.client();
    const file = await fx.file('pause.txt', 'pause');
    const { id } = await client.submitAsync(file, { external_reference_id: newRef('pause') });
    fx.proxy.clearLog();
    const poller = createPoller({ client, onUpdate: () => {}, initialDelayMs: 20, maxDelayMs: 40 });
    poller.pause();
    poller.track(id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fx.proxy.count()).toBe(0);
    poller.resume();
    await waitFor(() => fx.proxy.count() >= 2);
    expect(poller.untrack(id)).toBe(true);
    await poller.stop();
    const after = fx.proxy.count();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fx.proxy.count()).toBe(after);
    expect(() => poller.track(id)).toThrow(/stopped/);
  });
});

describe('global request budget', () => {
  it('caps the request rate of 200 concurrent lookups', async () => {
    const file = await fx.file('budget.txt', 'budget');
    const { id } = await fx.client().submitAsync(file, { external_reference_id: newRef('budget') });
    fx.proxy.clearLog();
    const rate = 100;
    const burst = 5;
    const budget = createRequestBudget({ ratePerSecond: rate, burst });
    const client = fx.client({ budget });
    const start = performance.now();
    const violations: string[] = [];
    const sampler = setInterval(() => {
      const seen = fx.proxy.count();
      const allowed = burst + (rate * (performance.now() - start)) / 1000 + 1;
      if (seen > allowed) violations.push(`${seen} > ${allowed.toFixed(1)}`);
    }, 20);
    try {
      const results = await Promise.all(Array.from({ length: 200 }, () => client.getScan(id)));
      expect(results.every((scan) => scan.id === id)).toBe(true);
    } finally {
      clearInterval(sampler);
      budget.close();
    }
    const elapsed = (performance.now() - start) / 1000;
    expect(fx.proxy.count()).toBe(200);
    expect(200).toBeLessThanOrEqual(burst + rate * elapsed + 1);
    expect(violations).toEqual([]);
  });

  it('caps the poller: many scans due at once never exceed the budget', async () => {
    const direct = fx.client();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const file = await fx.file(`budget-poll-${i}.txt`, `bp ${i}`);
      ids.push((await direct.submitAsync(file, { external_reference_id: newRef(`bp-${i}`) })).id);
    }
    fx.proxy.clearLog();
    const rate = 20;
    const burst = 2;
    const budget = createRequestBudget({ ratePerSecond: rate, burst });
    const terminal = new Set<string>();
    // Polls every 20-40 ms would want hundreds of requests per second.
    const poller = createPoller({ client: fx.client({ budget }), onUpdate: (u) => u.terminal && terminal.add(u.scanId), initialDelayMs: 20, maxDelayMs: 40 });
    const start = performance.now();
    const violations: string[] = [];
    const sampler = setInterval(() => {
      const seen = fx.proxy.count();
      const allowed = burst + (rate * (performance.now() - start)) / 1000 + 1;
      if (seen > allowed) violations.push(`${seen} > ${allowed.toFixed(1)}`);
    }, 20);
    try {
      for (const id of ids) poller.track(id);
      await waitFor(() => terminal.size === ids.length, { timeoutMs: 30_000 });
    } finally {
      clearInterval(sampler);
      await poller.stop();
      budget.close();
    }
    const elapsed = (performance.now() - start) / 1000;
    expect(fx.proxy.count()).toBeGreaterThanOrEqual(ids.length);
    expect(fx.proxy.count()).toBeLessThanOrEqual(burst + rate * elapsed + 1);
    expect(violations).toEqual([]);
  });
});

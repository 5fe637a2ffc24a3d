import { describe, expect, it } from 'vitest';
import type { QueueCounts, ScanEvent, ScanRecord } from '../../../shared/scans/record.ts';
import { createScanEvents } from '../../../electron/scans/events.ts';

const record = (status: ScanRecord['status']): ScanRecord =>
  ({ id: 'a', status }) as ScanRecord;

async function until(condition: () => boolean, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('scan events', () => {
  it('throttles progress per scan but always sends the last chunk', () => {
    const counts: QueueCounts = { queued: 0, uploading: 0, processing: 0 };
    const events = createScanEvents({ counts: () => counts, progressIntervalMs: 60_000 });
    const seen: ScanEvent[] = [];
    events.subscribe((event) => seen.push(event));
    for (let sent = 0; sent <= 100; sent += 10) events.progress({ id: 'a', sent, total: 100 });
    events.progress({ id: 'b', sent: 1, total: 100 });
    const progress = seen.filter((event) => event.type === 'progress');
    expect(progress.map((event) => event.type === 'progress' && `${event.progress.id}:${event.progress.sent}`)).toEqual(['a:0', 'a:100', 'b:1']);
    events.close();
  });

  it('coalesces counts and skips unchanged ones', async () => {
    const counts: QueueCounts = { queued: 1, uploading: 0, processing: 0 };
    const events = createScanEvents({ counts: () => ({ ...counts }), countsIntervalMs: 5 });
    const seen: QueueCounts[] = [];
    events.subscribe((event) => event.type === 'counts' && seen.push(event.counts));
    for (let i = 0; i < 50; i++) events.countsChanged();
    await until(() => seen.length === 1);
    events.countsChanged();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen).toHaveLength(1);
    counts.queued = 0;
    counts.processing = 1;
    events.countsChanged();
    await until(() => seen.length === 2);
    expect(seen[1]).toEqual({ queued: 0, uploading: 0, processing: 1 });
    events.close();
  });

  it('keeps delivering when one subscriber throws, and stops after unsubscribe', () => {
    const errors: unknown[] = [];
    const events = createScanEvents({ counts: () => ({ queued: 0, uploading: 0, processing: 0 }), onListenerError: (error) => errors.push(error) });
    const seen: string[] = [];
    events.subscribe(() => {
      throw new Error('broken');
    });
    const off = events.subscribe((event) => event.type === 'record' && seen.push(event.record.status));
    events.record(record('queued'));
    off();
    events.record(record('completed'));
    expect(seen).toEqual(['queued']);
    expect(errors).toHaveLength(2);
    events.close();
  });
});

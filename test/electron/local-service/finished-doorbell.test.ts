// The service's doorbell (LocalService.onFinished): a scan no request waits for
// (async, or sync answered 408) is told when it has been recorded, so its
// client can read it at once; a sync scan answered in time is not, nor is
// anything before it is recorded. Real service on loopback, real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { GatedEngine, getScan, startTestService, submit, waitFor, type TestService } from './harness.ts';

let service: TestService | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
});

function listen(started: TestService): string[] {
  const heard: string[] = [];
  started.onFinished((ids) => heard.push(...ids));
  return heard;
}

describe('the finished-scans doorbell', () => {
  it('rings for an async scan once it is recorded, and a GET then reads it terminal', async () => {
    const engine = new GatedEngine();
    service = await startTestService({ engine });
    const heard = listen(service);
    const accepted = await submit(service.url, { mode: 'async' });
    expect(accepted.status).toBe(202);
    const id = accepted.body.id as string;
    await waitFor(async () => engine.started > 0, 'the scan to start');
    // Not while the engine still works on it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([]);
    engine.release();
    await waitFor(async () => heard.includes(id), 'the doorbell');
    const read = await getScan(service.url, id);
    expect(read.body.status).toBe('completed');
  });

  it('does not ring for a sync scan whose request was answered with its verdict', async () => {
    service = await startTestService();
    const heard = listen(service);
    const answered = await submit(service.url, { mode: 'sync' });
    expect(answered.status).toBe(200);
    const later = await submit(service.url, { mode: 'async' });
    // The async scan's ring shows the sync one's would have come by now.
    await waitFor(async () => heard.includes(later.body.id as string), 'the async scan to ring');
    expect(heard).not.toContain(answered.body.id);
  });

  it('rings for a sync scan that outlasted its window (408), which its client now polls', async () => {
    const engine = new GatedEngine();
    service = await startTestService({ engine, syncWindowMs: 100 });
    const heard = listen(service);
    const timedOut = await submit(service.url, { mode: 'sync' });
    expect(timedOut.status).toBe(408);
    const id = timedOut.body.file_scan_id as string;
    engine.release();
    await waitFor(async () => heard.includes(id), 'the doorbell after a 408');
  });

  it('stops telling a listener that has stopped listening', async () => {
    service = await startTestService();
    const heard: string[] = [];
    const stop = service.onFinished((ids) => heard.push(...ids));
    const other = listen(service);
    stop();
    const accepted = await submit(service.url, { mode: 'async' });
    await waitFor(async () => other.includes(accepted.body.id as string), 'the remaining listener');
    expect(heard).toEqual([]);
  });
});

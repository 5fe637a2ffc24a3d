// The scan jobs over IPC: every scanJobs channel validates its arguments before the
// core sees them, and the window hears a job's progress but not each of its files
// (only a job's threats go out as scan events).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNELS, type JobUpdate } from '../../../shared/bridge/api.ts';
import type { ScanEvent } from '../../../shared/scans/record.ts';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers } from '../../../electron/shell/files.ts';
import { forwardEvents, registerIpcHandlers } from '../../../electron/shell/ipc.ts';
import { FakeWebContents, ipcMain, resetFakeElectron } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, jobProgress, scanRecord, type TestCore } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
let core: TestCore;
let window: FakeWebContents;

beforeEach(() => {
  resetFakeElectron();
  capture = captureLog();
  core = createTestCore();
  window = new FakeWebContents();
  registerIpcHandlers({ core, files: createFileHandlers(() => null), trustedWebContents: () => window as never, origins: appOrigins(null), log: capture.log });
});
afterEach(() => capture.cleanup());

function invoke(channel: string, ...args: unknown[]): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler({ sender: window, senderFrame: { url: 'verdict://app/index.html', parent: null } }, ...args));
}

const jobCalls = () => core.calls.filter((call) => call.method.startsWith('scanJobs.'));

describe('scanJobs channels', () => {
  it('forward valid requests to the core', async () => {
    await expect(invoke('scanJobs:start', { kind: 'quick' })).resolves.toMatchObject({ ok: true, value: { job: { kind: 'quick' } } });
    await expect(invoke('scanJobs:start', { kind: 'custom', roots: ['/home/user/Pictures'] })).resolves.toMatchObject({ ok: true });
    await expect(invoke('scanJobs:pause', 7)).resolves.toMatchObject({ ok: true, value: { job: { id: 7, status: 'paused' } } });
    await expect(invoke('scanJobs:resume', 7)).resolves.toMatchObject({ ok: true });
    await expect(invoke('scanJobs:cancel', 7)).resolves.toMatchObject({ ok: true, value: { job: { status: 'cancelled' } } });
    await expect(invoke('scanJobs:list')).resolves.toMatchObject({ ok: true, value: [] });
    await expect(invoke('scanJobs:list', { limit: 5 })).resolves.toMatchObject({ ok: true });
    expect(jobCalls().map((call) => call.method)).toEqual([
      'scanJobs.start',
      'scanJobs.start',
      'scanJobs.pause',
      'scanJobs.resume',
      'scanJobs.cancel',
      'scanJobs.list',
      'scanJobs.list',
    ]);
  });

  it.each([
    ['scanJobs:start', [{ kind: 'everything' }]],
    ['scanJobs:start', [{ kind: 'quick', roots: ['/etc'] }]],
    ['scanJobs:start', [{ kind: 'custom' }]],
    ['scanJobs:start', [{ kind: 'custom', roots: [] }]],
    ['scanJobs:start', [{ kind: 'full', extra: true }]],
    ['scanJobs:start', []],
    ['scanJobs:pause', ['7']],
    ['scanJobs:pause', [0]],
    ['scanJobs:resume', [1.5]],
    ['scanJobs:cancel', [-1]],
    ['scanJobs:get', [null]],
    ['scanJobs:list', [{ limit: 1000 }]],
    ['scanJobs:list', [{ kind: 'quick' }]],
  ])('%s rejects %j before the core sees it', async (channel, args) => {
    await expect(invoke(channel, ...args)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(jobCalls()).toEqual([]);
  });
});

describe('job events to the window', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends job progress as it comes, and of a job’s files only its threats', () => {
    const forwarding = forwardEvents({ core, target: () => window as never, delayMs: 50 });
    const update: JobUpdate = { type: 'progress', progress: jobProgress({ id: 3, counts: { found: 9, bytes: 90, scanned: 4, threats: 1, couldNotScan: 0, skipped: 0 } }) };
    core.emitJob(update);
    core.emitJob({ type: 'removed', ids: [1, 2] });
    expect(window.sent).toEqual([
      [EVENT_CHANNELS.jobUpdate, update],
      [EVENT_CHANNELS.jobUpdate, { type: 'removed', ids: [1, 2] }],
    ]);

    const single = scanRecord({ id: 'single', status: 'completed', safe: true });
    const jobClean = scanRecord({ id: 'job-clean', status: 'completed', safe: true, jobId: 3 });
    const jobQueued = scanRecord({ id: 'job-queued', status: 'queued', jobId: 3 });
    const jobFailed = scanRecord({ id: 'job-failed', status: 'failed', jobId: 3, error: { code: 'permission_denied', message: 'no' } });
    const jobThreat = scanRecord({ id: 'job-threat', status: 'completed', safe: false, jobId: 3 });
    for (const record of [single, jobClean, jobQueued, jobFailed, jobThreat]) core.emit({ type: 'record', record });
    core.emit({ type: 'removed', ids: ['gone'] });
    vi.advanceTimersByTime(50);
    const [channel, batch] = window.sent[2]! as [string, ScanEvent[]];
    expect(channel).toBe(EVENT_CHANNELS.scanEvent);
    expect(batch.map((event) => (event.type === 'record' ? event.record.id : event.type))).toEqual(['single', 'job-threat', 'removed']);

    forwarding.dispose();
    core.emitJob(update);
    expect(window.sent).toHaveLength(3);
  });
});

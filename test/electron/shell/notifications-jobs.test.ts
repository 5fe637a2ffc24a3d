// The end of a scan job as a notification: its summary once (files scanned, threats,
// could not scan, skipped, duration) in the user's language, a click opening the window;
// a job's own files are not notified one by one, except its threats.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Notification, resetFakeElectron } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, jobProgress, scanRecord, type TestCore } from './test-core.ts';
import { realTimers } from '../../../electron/shell/event-batcher.ts';
import { setupNotifications } from '../../../electron/shell/notifications.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
let core: TestCore;
const onShowScan = vi.fn();
const onOpen = vi.fn();

beforeEach(() => {
  resetFakeElectron();
  vi.useFakeTimers();
  capture = captureLog();
  core = createTestCore();
  onShowScan.mockClear();
  onOpen.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  capture.cleanup();
});

const start = () => setupNotifications({ core, onShowScan, onOpen, log: capture.log, windowMs: 1000, timers: realTimers });
const counts = { found: 1210, bytes: 5_000_000, scanned: 1200, threats: 2, couldNotScan: 3, skipped: 5 };

describe('the end of a scan job', () => {
  it('is told once, with its summary; a click opens the window', async () => {
    const stop = start();
    core.emitJob({ type: 'progress', progress: jobProgress({ id: 5, kind: 'full', counts }) });
    const done = jobProgress({ id: 5, kind: 'full', status: 'completed', counts, activeMs: 185_000, finishedAt: '2026-11-25T10:03:05.000Z' });
    core.emitJob({ type: 'progress', progress: done });
    core.emitJob({ type: 'progress', progress: done });
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown.map((n) => [n.options.title, n.options.body])).toEqual([
      ['Full scan finished', '1200 files scanned, 2 threats, 3 could not be scanned, 5 skipped, in 3 min 5 s.'],
    ]);
    Notification.shown[0]!.emit('click');
    expect(onOpen).toHaveBeenCalled();
    expect(onShowScan).not.toHaveBeenCalled();
    stop();
  });

  it('speaks German, and says when the job was cancelled', async () => {
    core.settingsValue = { ...core.settingsValue, language: 'de' };
    const stop = start();
    core.emitJob({ type: 'progress', progress: jobProgress({ id: 6, kind: 'quick', status: 'cancelled', counts: { ...counts, scanned: 1 }, activeMs: 42_000 }) });
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({
      title: 'Schnellprüfung abgebrochen',
      body: '1 Datei geprüft, 2 Bedrohungen, 3 nicht prüfbar, 5 übersprungen, in 42 s.',
    });
    stop();
  });

  it('leaves a job’s clean and failed files to that summary, but tells its threats as they come', async () => {
    core.settingsValue = { ...core.settingsValue, notifyClean: true };
    const stop = start();
    core.emit({ type: 'record', record: scanRecord({ id: 'clean', fileName: 'a.txt', status: 'completed', safe: true, jobId: 2 }) });
    core.emit({ type: 'record', record: scanRecord({ id: 'failed', status: 'failed', safe: null, jobId: 2, error: { code: 'permission_denied', message: 'no' } }) });
    core.emit({ type: 'record', record: scanRecord({ id: 'bad', fileName: 'eicar.com', status: 'completed', safe: false, jobId: 2 }) });
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown.map((n) => n.options.title)).toEqual(['Threat found: eicar.com']);
    stop();
  });
});

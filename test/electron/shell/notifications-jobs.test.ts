// The end of a scan job as a notification: its summary once (files scanned, threats,
// could not scan, skipped, duration) in the user's language, a click opening the window;
// a job's own files are not notified one by one, except its threats.
import { describe, expect, it, vi } from 'vitest';
import { Notification } from './fake-electron.ts';
import { useNotificationsFixture } from './notifications-fixture.ts';
import { jobProgress, scanRecord } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const fx = useNotificationsFixture({ windowMs: 1000, fakeTimers: true });
const { onShowScan, onOpen, start } = fx;
const counts = { found: 1210, bytes: 5_000_000, scanned: 1200, threats: 2, couldNotScan: 3, skipped: 5 };

describe('the end of a scan job', () => {
  it('is told once, with its summary; a click opens the window', async () => {
    const stop = start();
    fx.core.emitJob({ type: 'progress', progress: jobProgress({ id: 5, kind: 'full', counts }) });
    const done = jobProgress({ id: 5, kind: 'full', status: 'completed', counts, activeMs: 185_000, finishedAt: '2026-11-25T10:03:05.000Z' });
    fx.core.emitJob({ type: 'progress', progress: done });
    fx.core.emitJob({ type: 'progress', progress: done });
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
    fx.core.settingsValue = { ...fx.core.settingsValue, language: 'de' };
    const stop = start();
    fx.core.emitJob({ type: 'progress', progress: jobProgress({ id: 6, kind: 'quick', status: 'cancelled', counts: { ...counts, scanned: 1 }, activeMs: 42_000 }) });
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({
      title: 'Schnellprüfung abgebrochen',
      body: '1 Datei geprüft, 2 Bedrohungen, 3 nicht prüfbar, 5 übersprungen, in 42 s.',
    });
    stop();
  });

  it('leaves a job’s clean and failed files to that summary, but tells its threats as they come', async () => {
    fx.core.settingsValue = { ...fx.core.settingsValue, notifyClean: true };
    const stop = start();
    fx.core.emit({ type: 'record', record: scanRecord({ id: 'clean', fileName: 'a.txt', status: 'completed', safe: true, jobId: 2 }) });
    fx.core.emit({ type: 'record', record: scanRecord({ id: 'failed', status: 'failed', safe: null, jobId: 2, error: { code: 'permission_denied', message: 'no' } }) });
    fx.core.emit({ type: 'record', record: scanRecord({ id: 'bad', fileName: 'eicar.com', status: 'completed', safe: false, jobId: 2 }) });
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown.map((n) => n.options.title)).toEqual(['Threat found: eicar.com']);
    stop();
  });
});

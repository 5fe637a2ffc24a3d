// A scheduled scan skipped because its files would have waited for consent to upload to a
// remote service: told once per skipped run, in the user's language, with the service's host
// and what to do; a skip an earlier run of the app made (already in the view at start) is not
// told again, nor is any other outcome.
import { describe, expect, it, vi } from 'vitest';
import type { ScheduleKindView, SchedulesView } from '../../../electron/jobs/schedule/schedule-view.ts';
import { Notification } from './fake-electron.ts';
import { useNotificationsFixture } from './notifications-fixture.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const fx = useNotificationsFixture({ windowMs: 10 });
const { onOpen, start } = fx;

const kindView = (over: Partial<ScheduleKindView>): ScheduleKindView => ({
  kind: 'quick',
  schedule: { repeat: 'daily', time: '13:00' },
  nextDue: '2026-11-26T12:00:00.000Z',
  activity: 'idle',
  lastRunAt: null,
  lastOutcome: null,
  skippedFor: null,
  ...over,
});
const view = (...kinds: ScheduleKindView[]): SchedulesView => ({ skipOnBattery: false, kinds, next: null });
const skipped = (at: string, kind: 'quick' | 'full' = 'quick') => kindView({ kind, lastOutcome: 'skipped_consent', lastRunAt: at, skippedFor: 'https://scanner.example.com:8443' });

describe('a scheduled scan skipped for want of upload consent', () => {
  it('is told once per skipped run, with the host and what to do; a click opens the window', async () => {
    const stop = start();
    fx.core.emitSchedules(view(kindView({ lastOutcome: 'ran', lastRunAt: '2026-11-24T12:00:00.000Z' }), kindView({ kind: 'full', lastOutcome: 'skipped_battery', lastRunAt: '2026-11-24T12:00:00.000Z' })));
    fx.core.emitSchedules(view(skipped('2026-11-25T12:00:00.000Z')));
    fx.core.emitSchedules(view(skipped('2026-11-25T12:00:00.000Z')));
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({
      title: 'Scheduled quick scan skipped',
      body: 'Its files would be sent to scanner.example.com:8443, and Verdict asks you first. To let scheduled scans run, scan once by hand and choose “Don’t ask again for scanner.example.com:8443”, or turn off asking in Settings › Privacy.',
    });
    Notification.shown[0]!.emit('click');
    expect(onOpen).toHaveBeenCalled();

    // The next day's run skipped again: told again.
    fx.core.emitSchedules(view(skipped('2026-11-26T12:00:00.000Z')));
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(2));
    stop();
  });

  it('speaks German, and does not tell again of a skip made before the app started', async () => {
    fx.core.settingsValue = { ...fx.core.settingsValue, language: 'de' };
    fx.core.schedulesValue = view(skipped('2026-11-24T12:00:00.000Z'));
    const stop = start();
    fx.core.emitSchedules(view(skipped('2026-11-24T12:00:00.000Z')));
    fx.core.emitSchedules(view(skipped('2026-11-25T12:00:00.000Z', 'full')));
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({
      title: 'Geplante vollständige Prüfung übersprungen',
      body: 'Ihre Dateien würden an scanner.example.com:8443 gesendet, und Verdict fragt Sie vorher. Damit geplante Prüfungen laufen, prüfen Sie einmal selbst und wählen „Für scanner.example.com:8443 nicht mehr fragen“, oder schalten Sie die Nachfrage unter Einstellungen › Datenschutz aus.',
    });
    stop();
  });
});

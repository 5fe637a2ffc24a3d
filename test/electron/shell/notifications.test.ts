import { describe, expect, it, vi } from 'vitest';
import { Notification } from './fake-electron.ts';
import { useNotificationsFixture } from './notifications-fixture.ts';
import { scanRecord } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const fx = useNotificationsFixture({ windowMs: 1000, fakeTimers: true });
const { onShowScan, start } = fx;

describe('setupNotifications', () => {
  it('shows a threat after the collection window; a click opens that scan', async () => {
    const stop = start();
    fx.core.emit({ type: 'record', record: scanRecord({ id: 'bad', fileName: 'eicar.com', safe: false, detailed: 'Eicar-Signature' }) });
    expect(Notification.shown).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown.map((n) => n.options.title)).toEqual(['Threat found: eicar.com']);
    Notification.shown[0]!.emit('click');
    expect(onShowScan).toHaveBeenCalledWith('bad');
    stop();
  });

  it('reads notifyClean and the language when the batch is shown', async () => {
    fx.core.settingsValue = { ...fx.core.settingsValue, notifyClean: true, language: 'de' };
    const stop = start();
    fx.core.emit({ type: 'record', record: scanRecord({ id: 'ok', fileName: 'a.txt', safe: true }) });
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown.map((n) => n.options.title)).toEqual(['Sauber: a.txt']);
    stop();
  });

  it('stays quiet for clean results by default and opens the main view for a summary', async () => {
    const stop = start();
    fx.core.emit({ type: 'record', record: scanRecord({ id: 'ok', safe: true }) });
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown).toHaveLength(0);
    for (let i = 0; i < 5; i++) fx.core.emit({ type: 'record', record: scanRecord({ id: `c${i}`, safe: true, status: 'failed' }) });
    await vi.advanceTimersByTimeAsync(1000);
    expect(Notification.shown.map((n) => n.options.body)).toEqual(['5 files could not be scanned. Open Verdict to see why.']);
    stop();
  });

  it('does nothing where notifications are unsupported, and stops on dispose', async () => {
    Notification.supported = false;
    start()();
    expect(fx.core.listenerCount()).toBe(0);
    Notification.supported = true;
    const stop = start();
    expect(fx.core.listenerCount()).toBe(1);
    stop();
    expect(fx.core.listenerCount()).toBe(0);
  });
});

// A removable drive's offer as a notification (stand-in Electron): its buttons do what they
// say (Scan, Not now, Always for this drive), a click scans (Linux shows no buttons), closing
// it is no answer, and the notice goes when its drive goes. In the settings' language.
import { describe, expect, it, vi } from 'vitest';
import type { Drive, DriveEvent } from '../../../electron/drives/drive.ts';
import { setupDriveNotices } from '../../../electron/shell/drive-notice.ts';
import { Notification, resetFakeElectron } from './fake-electron.ts';
import { captureLog } from './log-capture.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const stick: Drive = { mountPoint: '/media/alice/STICK', device: '/dev/sdb1', fsType: 'vfat', label: 'STICK', uuid: '3A2F-1C0D', sizeBytes: 16e9 };

function setup(language: 'en' | 'de' = 'en') {
  resetFakeElectron();
  const listeners = new Set<(event: DriveEvent) => void>();
  const drives = {
    onEvent: (listener: (event: DriveEvent) => void) => (listeners.add(listener), () => void listeners.delete(listener)),
    scan: vi.fn(async () => null),
    notNow: vi.fn(),
    alwaysFor: vi.fn(async () => true),
    offers: () => [],
  };
  const settings = { get: async () => ({ ok: true as const, value: { language } }) } as never;
  const capture = captureLog();
  const stop = setupDriveNotices({ core: { settings, drives }, log: capture.log });
  const offer = async () => {
    const before = Notification.shown.length;
    for (const listener of listeners) listener({ type: 'offer', offer: { drive: stick, why: 'ask' } });
    await vi.waitFor(() => expect(Notification.shown.length).toBe(before + 1));
    return Notification.shown.at(-1)!;
  };
  const emit = (event: DriveEvent) => listeners.forEach((listener) => listener(event));
  return { drives, offer, emit, stop: () => (stop(), capture.cleanup()) };
}

describe("a drive's offer", () => {
  it('Scan, Not now and Always for this drive each do theirs; a click scans', async () => {
    const { drives, offer, stop } = setup();
    (await offer()).emit('action', {}, 0);
    expect(drives.scan).toHaveBeenCalledWith('/media/alice/STICK');
    (await offer()).emit('action', {}, 1);
    expect(drives.notNow).toHaveBeenCalledWith('/media/alice/STICK');
    (await offer()).emit('action', {}, 2);
    expect(drives.alwaysFor).toHaveBeenCalledWith('/media/alice/STICK');
    (await offer()).emit('click');
    expect(drives.scan).toHaveBeenCalledTimes(2);
    const closed = await offer();
    closed.emit('close');
    expect(drives.notNow).toHaveBeenCalledTimes(1); // closing is no answer
    stop();
  });

  it('goes when its drive goes, and speaks the settings language', async () => {
    const { offer, emit, stop } = setup('de');
    const shown = await offer();
    expect(shown.options).toMatchObject({ title: 'STICK wurde angeschlossen', actions: [{ text: 'Prüfen' }, { text: 'Nicht jetzt' }, { text: 'Immer für dieses Laufwerk' }] });
    emit({ type: 'removed', drive: stick, jobId: null });
    expect(shown.closed).toBe(true);
    stop();
  });
});

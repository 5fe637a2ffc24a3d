// Removable drives in the tray (issue 29 §2): a drive offered and not answered is a menu item
// ("Scan drive “STICK”", en/de) until it is scanned, declined or removed; a click scans it
// (real tray code, fake Electron).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Drive, DriveEvent, DriveOffer } from '../../../electron/drives/drive.ts';
import { initialTrayState, trayMenu, withDriveOffers } from '../../../electron/shell/tray-state.ts';
import { createTray, type TrayController } from '../../../electron/shell/tray.ts';
import { textsFor } from '../../../electron/shell/texts.ts';
import { resetFakeElectron, Tray } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const stick: Drive = { mountPoint: '/media/alice/STICK', device: '/dev/sdb1', fsType: 'vfat', label: 'STICK', uuid: null, sizeBytes: 1e9 };

describe('drives in the tray state', () => {
  it('an offered drive is an item after the scans, its label shown like every name', () => {
    const state = withDriveOffers(initialTrayState, [{ mountPoint: '/media/alice/X', label: 'FOTOS\u202Egpj.exe' }]);
    expect(trayMenu(state, textsFor('en'))).toContainEqual({ type: 'item', label: 'Scan drive “FOTOS⟨U+202E⟩gpj.exe”', enabled: true, action: { type: 'scan-drive', mountPoint: '/media/alice/X' } });
    expect(trayMenu(state, textsFor('de')).some((item) => item.type === 'item' && item.label === 'Laufwerk „FOTOS⟨U+202E⟩gpj.exe“ prüfen')).toBe(true);
    expect(withDriveOffers(state, [{ mountPoint: '/media/alice/X', label: 'FOTOS\u202Egpj.exe' }])).toBe(state);
    expect(withDriveOffers(state, [])).toEqual(initialTrayState);
  });
});

describe('drives in the tray', () => {
  let capture: LogCapture;
  let tray: TrayController;
  let offers: DriveOffer[];
  const listeners = new Set<(event: DriveEvent) => void>();
  const scan = vi.fn(async () => null);
  beforeEach(() => {
    resetFakeElectron();
    capture = captureLog();
    offers = [];
    const core = Object.assign(createTestCore(), {
      drives: { onEvent: (listener: (event: DriveEvent) => void) => (listeners.add(listener), () => void listeners.delete(listener)), offers: () => offers, scan, notNow: vi.fn(), alwaysFor: vi.fn() },
    });
    tray = createTray({ core, iconPath: (state) => `/icons/tray-${state}.png`, log: capture.log, onOpen: vi.fn(), onShowScan: vi.fn(), onQuit: vi.fn() });
  });
  afterEach(() => {
    tray.dispose();
    capture.cleanup();
    listeners.clear();
  });

  it('shows an offered drive until it is answered, and scans it on a click', () => {
    const fake = Tray.instances[0]!;
    const item = () => fake.menu?.items.find((entry) => entry.label === 'Scan drive “STICK”');
    expect(item()).toBeUndefined();
    offers = [{ drive: stick, why: 'ask' }];
    for (const listener of listeners) listener({ type: 'offer', offer: offers[0]! });
    item()!.click!();
    expect(scan).toHaveBeenCalledWith('/media/alice/STICK');
    offers = [];
    for (const listener of listeners) listener({ type: 'declined', drive: stick });
    expect(item()).toBeUndefined();
  });
});

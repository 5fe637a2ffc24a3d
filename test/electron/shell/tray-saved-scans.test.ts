// Saved scans in the tray (issue 29 §3): each saved scan is an item of the menu, in English
// and German, following the core's changes; a click runs it; a problem opens the window
// (real tray code, fake Electron).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedScan } from '../../../shared/saved-scans/saved-scan.ts';
import { err, ok } from '../../../shared/result.ts';
import { initialTrayState, TRAY_SAVED_LIMIT, trayMenu, withSavedScans } from '../../../electron/shell/tray-state.ts';
import { createTray, type TrayController } from '../../../electron/shell/tray.ts';
import { textsFor } from '../../../electron/shell/texts.ts';
import { resetFakeElectron, Tray } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, type TestCore } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const scan = (name: string): SavedScan => ({ name, folders: ['/home/u'], excluded: [], basicOnly: false, force: false, mode: 'auto', schedule: { repeat: 'off' } });

describe('saved scans in the tray state', () => {
  it('lists them after the full scan, shortened and shown like every name, at most ten', () => {
    const state = withSavedScans(initialTrayState, ['Work', 'photos\u202Egpj.exe']);
    const labels = trayMenu(state, textsFor('en')).flatMap((item) => (item.type === 'item' ? [item.label] : []));
    expect(labels.slice(labels.indexOf('Full scan') + 1, labels.indexOf('Full scan') + 3)).toEqual(['Run “Work”', 'Run “photos⟨U+202E⟩gpj.exe”']);
    expect(trayMenu(state, textsFor('de'))).toContainEqual({ type: 'item', label: '„Work“ starten', enabled: true, action: { type: 'run-saved', name: 'Work' } });
    expect(withSavedScans(state, ['Work', 'photos\u202Egpj.exe'])).toBe(state);
    expect(withSavedScans(initialTrayState, Array.from({ length: 15 }, (_, i) => `s${i}`)).savedScans).toHaveLength(TRAY_SAVED_LIMIT);
  });
});

describe('saved scans in the tray', () => {
  let capture: LogCapture;
  let core: TestCore;
  let tray: TrayController;
  let listeners: Array<(scans: SavedScan[]) => void>;
  const onOpen = vi.fn();
  beforeEach(() => {
    resetFakeElectron();
    capture = captureLog();
    core = createTestCore();
    listeners = [];
    core.savedScans.list = async () => ok([scan('Work')]);
    Object.assign(core, { savedScanChanges: { onChange: (listener: (scans: SavedScan[]) => void) => (listeners.push(listener), () => undefined) } });
    tray = createTray({ core, iconPath: (state) => `/icons/tray-${state}.png`, log: capture.log, onOpen, onShowScan: vi.fn(), onQuit: vi.fn() });
  });
  afterEach(() => {
    tray.dispose();
    capture.cleanup();
    onOpen.mockClear();
  });

  it('shows the saved scans, follows their changes, and runs one on a click', async () => {
    const fake = Tray.instances[0]!;
    const item = (label: string) => fake.menu?.items.find((entry) => entry.label === label);
    await vi.waitFor(() => expect(item('Run “Work”')).toBeDefined());
    for (const listener of listeners) listener([scan('Work'), scan('Music')]);
    expect(item('Run “Music”')).toBeDefined();
    item('Run “Music”')!.click!();
    await vi.waitFor(() => expect(core.calls).toContainEqual({ method: 'savedScans.run', args: ['Music'] }));
    expect(onOpen).not.toHaveBeenCalled();

    core.savedScans.run = async () => err('not_found', 'No saved scan is named “Music”.');
    item('Run “Music”')!.click!();
    await vi.waitFor(() => expect(onOpen).toHaveBeenCalled());
  });
});

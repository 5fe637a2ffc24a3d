// "Next scan: …" in the tray: its tooltip and a line of its menu, in English and
// German, following the core's schedule changes (real tray code, fake Electron).
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchedulesView } from '../../../electron/jobs/schedule/scheduler.ts';
import { initialTrayState, trayMenu, trayTooltip, withSavedNext, withSchedules } from '../../../electron/shell/tray-state.ts';
import { createTray, type TrayController } from '../../../electron/shell/tray.ts';
import { textsFor } from '../../../electron/shell/texts.ts';
import { resetFakeElectron, Tray } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, type TestCore } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const originalTz = process.env.TZ;
// Set before the times below are made: local time in this file is Berlin's.
process.env.TZ = 'Europe/Berlin';
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

/** Thursday 26 November 2026, 09:00 in Berlin. */
const thursdayNine = new Date(2026, 10, 26, 9, 0).toISOString();
const view = (next: SchedulesView['next']): SchedulesView => ({ skipOnBattery: true, kinds: [], next });

describe('next scan in the tray state', () => {
  it('adds the next scan to the tooltip and as a line of the menu, in local time', () => {
    const state = withSchedules(initialTrayState, view({ kind: 'full', at: thursdayNine }));
    expect(trayTooltip(state, textsFor('en'))).toBe('Verdict · Next scan: full scan, Thu 26 Nov, 09:00');
    expect(trayTooltip(state, textsFor('de'))).toBe('Verdict · Nächste Prüfung: vollständige Prüfung, Do., 26. Nov., 09:00');
    const items = trayMenu(state, textsFor('en'));
    expect(items).toContainEqual({ type: 'item', label: 'Next scan: full scan, Thu 26 Nov, 09:00', enabled: false, action: null });
  });

  it('says nothing while no schedule is on, and keeps the same state when nothing changed', () => {
    expect(trayTooltip(withSchedules(initialTrayState, view(null)), textsFor('en'))).toBe('Verdict');
    expect(withSchedules(initialTrayState, view(null))).toBe(initialTrayState);
    const state = withSchedules(initialTrayState, view({ kind: 'quick', at: thursdayNine }));
    expect(withSchedules(state, view({ kind: 'quick', at: thursdayNine }))).toBe(state);
    expect(trayMenu(state, textsFor('en')).some((item) => item.type === 'item' && item.label.startsWith('Next scan: quick scan'))).toBe(true);
  });

  it("shows a saved scan's next run by its name when it is sooner (issue 29 §3), in en and de", () => {
    const thursdayEight = new Date(2026, 10, 26, 8, 0).toISOString();
    const quick = withSchedules(initialTrayState, view({ kind: 'quick', at: thursdayNine }));
    const saved = withSavedNext(quick, { name: 'Photos', at: thursdayEight });
    expect(trayTooltip(saved, textsFor('en'))).toBe('Verdict · Next scan: “Photos”, Thu 26 Nov, 08:00');
    expect(trayTooltip(saved, textsFor('de'))).toBe('Verdict · Nächste Prüfung: „Photos“, Do., 26. Nov., 08:00');
    expect(trayMenu(saved, textsFor('en'))).toContainEqual({ type: 'item', label: 'Next scan: “Photos”, Thu 26 Nov, 08:00', enabled: false, action: null });
    // Later than the quick scan: the quick scan is the next one.
    expect(trayTooltip(withSavedNext(quick, { name: 'Photos', at: new Date(2026, 10, 26, 10, 0).toISOString() }), textsFor('en'))).toBe('Verdict · Next scan: quick scan, Thu 26 Nov, 09:00');
    // Alone, and shown like every name.
    expect(trayTooltip(withSavedNext(initialTrayState, { name: 'A\u202Eexe', at: thursdayNine }), textsFor('en'))).toBe('Verdict · Next scan: “A⟨U+202E⟩exe”, Thu 26 Nov, 09:00');
    expect(withSavedNext(saved, { name: 'Photos', at: thursdayEight })).toBe(saved);
  });
});

describe('next scan in the tray', () => {
  let capture: LogCapture;
  let core: TestCore;
  let tray: TrayController;
  beforeEach(() => {
    resetFakeElectron();
    capture = captureLog();
    core = createTestCore();
    core.schedulesValue = view({ kind: 'quick', at: thursdayNine });
    tray = createTray({ core, iconPath: (state) => `/icons/tray-${state}.png`, log: capture.log, onOpen: vi.fn(), onShowScan: vi.fn(), onQuit: vi.fn() });
  });
  afterEach(() => {
    tray.dispose();
    capture.cleanup();
  });

  it('shows the next scan from the start, and follows the schedule changes', async () => {
    const fake = Tray.instances[0]!;
    await vi.waitFor(() => expect(fake.tooltip).toContain('Next scan: quick scan, Thu 26 Nov, 09:00'));
    core.emitSchedules(view(null));
    expect(fake.tooltip).not.toContain('Next scan');
    expect(fake.menu!.items.some((item) => item.label?.startsWith('Next scan'))).toBe(false);
    core.emitSchedules(view({ kind: 'full', at: thursdayNine }));
    expect(fake.menu!.items.some((item) => item.label === 'Next scan: full scan, Thu 26 Nov, 09:00')).toBe(true);
  });

  it("follows the saved scans' next run", () => {
    tray.dispose();
    resetFakeElectron();
    let listener: ((next: { name: string; at: string } | null) => void) | null = null;
    const savedScanNext = { next: () => ({ name: 'Photos', at: new Date(2026, 10, 26, 8, 0).toISOString() }), onNext: (next: typeof listener) => ((listener = next), () => (listener = null)) };
    tray = createTray({ core: { ...core, savedScanNext }, iconPath: (state) => `/icons/tray-${state}.png`, log: capture.log, onOpen: vi.fn(), onShowScan: vi.fn(), onQuit: vi.fn() });
    const fake = Tray.instances[0]!;
    expect(fake.tooltip).toContain('Next scan: “Photos”, Thu 26 Nov, 08:00');
    listener!(null);
    expect(fake.tooltip).toContain('Next scan: quick scan, Thu 26 Nov, 09:00');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, Tray, type FakeMenuItem } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, folderStatus, protectionView, scanRecord, type TestCore } from './test-core.ts';
import { createTray, type TrayController } from '../../../electron/shell/tray.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
let core: TestCore;
let tray: TrayController;
const actions = { onOpen: vi.fn(), onShowScan: vi.fn(), onQuit: vi.fn() };

beforeEach(() => {
  resetFakeElectron();
  capture = captureLog();
  core = createTestCore();
  core.folders = [folderStatus('w1')];
  for (const action of Object.values(actions)) action.mockClear();
  tray = createTray({ core, iconPath: (state) => `/icons/tray-${state}.png`, log: capture.log, ...actions });
});
afterEach(() => {
  tray.dispose();
  capture.cleanup();
});

const fake = () => Tray.instances[0]!;
const item = (label: string): FakeMenuItem => {
  const found = fake().menu!.items.find((entry) => entry.label === label);
  if (!found) throw new Error(`no menu item ${label}; have ${fake().menu!.items.map((entry) => entry.label).join(', ')}`);
  return found;
};

describe('createTray', () => {
  it('starts idle and changes its icon with the core events', async () => {
    expect(fake().image.path).toBe('/icons/tray-idle.png');
    core.emit({ type: 'counts', counts: { queued: 2, uploading: 0, processing: 0 } });
    expect(fake().image.path).toBe('/icons/tray-scanning.png');
    core.emit({ type: 'record', record: scanRecord({ id: 'bad', fileName: 'eicar.com', safe: false }) });
    expect(fake().image.path).toBe('/icons/tray-threat.png');
    // The test core's engine is the built-in one: the tooltip also says protection is limited.
    await vi.waitFor(() => expect(fake().tooltip).toBe('Verdict: threat found · Limited protection: basic checks only (EICAR test file)'));
    tray.acknowledge();
    expect(fake().image.path).toBe('/icons/tray-scanning.png');
  });

  it('shows the protection state in the tooltip and as the menu\'s first line, and follows its changes', async () => {
    await vi.waitFor(() => expect(fake().tooltip).toBe('Verdict · Limited protection: basic checks only (EICAR test file)'));
    expect(fake().menu!.items[0]!.label).toBe('Limited protection: basic checks only (EICAR test file)');
    core.emitProtection(protectionView({ status: { ...protectionView().status!, state: 'outdated' } }));
    expect(fake().tooltip).toBe('Verdict · Signatures out of date');
    fake().menu!.items[0]!.click!();
    expect(actions.onOpen).toHaveBeenCalled();
    core.emitProtection(protectionView({ status: { ...protectionView().status!, state: 'protected' } }));
    expect(fake().tooltip).toBe('Verdict');
    expect(fake().menu!.items[0]!.label).toBe('Protected: ClamAV signatures are current');
  });

  it('lists recent verdicts; clicking one opens that scan', () => {
    core.emit({ type: 'record', record: scanRecord({ id: 'bad', fileName: 'Tom & Jerry.exe', safe: false }) });
    item('Threat: Tom && Jerry.exe').click!();
    expect(actions.onShowScan).toHaveBeenCalledWith('bad');
  });

  it('opens, quits, and pauses or resumes watching through the core', async () => {
    await vi.waitFor(() => expect(item('Pause watching').enabled).toBe(true));
    item('Open Verdict').click!();
    expect(actions.onOpen).toHaveBeenCalled();
    item('Quit Verdict').click!();
    expect(actions.onQuit).toHaveBeenCalled();

    item('Pause watching').click!();
    await vi.waitFor(() => expect(item('Resume watching').enabled).toBe(true));
    expect(core.calls).toContainEqual({ method: 'watch.setAllPaused', args: [true] });
    expect(tray.keepsRunning()).toBe(false);
    item('Resume watching').click!();
    await vi.waitFor(() => expect(tray.keepsRunning()).toBe(true));
  });

  it('starts a quick or a full scan through the core; one of its kind already running opens the window', async () => {
    item('Quick scan').click!();
    item('Full scan').click!();
    await vi.waitFor(() => expect(core.calls.filter((call) => call.method === 'scanJobs.start').map((call) => call.args)).toEqual([[{ kind: 'quick' }], [{ kind: 'full' }]]));
    expect(actions.onOpen).not.toHaveBeenCalled();

    core.scanJobs.start = async () => ({ ok: false, error: { code: 'job_running', message: 'A quick scan is already running.', params: { id: 4 } } });
    item('Quick scan').click!();
    await vi.waitFor(() => expect(actions.onOpen).toHaveBeenCalledTimes(1));
    expect(capture.lines().some((line) => line.msg === 'could not start a scan from the tray')).toBe(true);
  });

  it('keeps the app running while folders are watched, following folder changes', async () => {
    await vi.waitFor(() => expect(tray.keepsRunning()).toBe(true));
    core.emitWatch([]);
    expect(tray.keepsRunning()).toBe(false);
    core.emitWatch([folderStatus('a')]);
    expect(tray.keepsRunning()).toBe(true);
  });

  it('uses the language from the settings', async () => {
    core.settingsValue = { ...core.settingsValue, language: 'de' };
    tray.refreshTexts();
    await vi.waitFor(() => expect(item('Verdict öffnen')).toBeDefined());
  });

  it('stops listening and removes the icon on dispose', () => {
    tray.dispose();
    expect(fake().destroyed).toBe(true);
    expect(core.listenerCount()).toBe(0);
  });
});

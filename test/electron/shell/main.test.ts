// The composition root, wired against the fake electron module and a test Core
// (createCore is replaced: the core belongs to another module and has its own tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/bridge/api.ts';
import { err } from '../../../shared/result.ts';
import type { CoreOptions } from '../../../electron/core/core.ts';
import { app, BrowserWindow, events, FakeEvent, ipcMain, powerMonitor, protocol, session, Tray } from './fake-electron.ts';
import { createTestCore, type TestCore } from './test-core.ts';

const hoisted = vi.hoisted(() => ({ core: null as TestCore | null, options: [] as unknown[] }));

vi.mock('electron', () => import('./fake-electron.ts'));
vi.mock('../../../electron/core/create-core.ts', () => ({
  createCore: async (options: unknown) => {
    hoisted.options.push(options);
    return hoisted.core;
  },
}));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-main-'));
const firstLaunchFile = path.join(tmp, 'downloads', 'first.exe');
let core: TestCore;
const originalArgv = process.argv;
let startup: { schemes: number; sandbox: number; locks: number };

beforeAll(async () => {
  core = createTestCore();
  hoisted.core = core;
  app.getPath.mockImplementation((name: string) => path.join(tmp, name));
  delete process.env.VITE_DEV_SERVER_URL;
  process.argv = [process.execPath, firstLaunchFile, '--enable-logging'];
  await import('../../../electron/main.ts');
  await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1));
  // Mock call records are cleared between tests; keep what startup did.
  startup = {
    schemes: protocol.registerSchemesAsPrivileged.mock.calls.length,
    sandbox: app.enableSandbox.mock.calls.length,
    locks: app.requestSingleInstanceLock.mock.calls.length,
  };
});
afterAll(() => {
  process.argv = originalArgv;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('electron/main.ts', () => {
  it('registers the app scheme and the sandbox before the app is ready', () => {
    expect(startup).toEqual({ schemes: 1, sandbox: 1, locks: 1 });
  });

  it('creates the core in the user data folder, watching for removable drives', () => {
    expect(hoisted.options).toEqual([{ dataDir: path.join(tmp, 'userData'), logFile: path.join(tmp, 'logs', 'core.log'), secrets: expect.anything(), power: expect.anything(), watchDrives: true }]);
  });

  it('gives the core the power supply as the powerMonitor tells it (battery, wake-ups)', () => {
    const power = (hoisted.options[0] as CoreOptions).power!;
    expect(power.onBattery()).toBe(false);
    powerMonitor.onBattery = true;
    expect(power.onBattery()).toBe(true);
    powerMonitor.onBattery = false;
    let woke = 0;
    const stop = power.onResume(() => woke++);
    powerMonitor.emit('resume');
    stop();
    powerMonitor.emit('resume');
    expect(woke).toBe(1);
  });

  it('hardens the session and serves the UI from the app scheme', () => {
    const ses = session.defaultSession;
    expect(ses.permissionRequestHandler).not.toBeNull();
    expect(ses.headersListener).not.toBeNull();
    expect(ses.protocolHandlers.has('verdict')).toBe(true);
    expect(BrowserWindow.instances[0]!.loadedUrl).toBe('verdict://app/index.html');
  });

  it('registers every IPC handler before the window loads', () => {
    const firstLoad = events.findIndex((entry) => entry.startsWith('loadURL'));
    const handles = events.filter((entry) => entry.startsWith('ipcMain.handle'));
    expect(handles).toHaveLength(Object.keys(INVOKE_CHANNELS).length);
    expect(firstLoad).toBeGreaterThan(events.lastIndexOf(handles.at(-1)!));
    expect(ipcMain.handlers.size).toBe(Object.keys(INVOKE_CHANNELS).length);
  });

  it('scans files named on the first launch as opened with Verdict (a manual scan), and shows the scan', async () => {
    await vi.waitFor(() => expect(core.calls).toContainEqual({ method: 'submit', args: [[firstLaunchFile], { origin: 'second-instance' }] }));
    // The detail panel is where a scan waiting for upload consent can be sent.
    await vi.waitFor(() => expect(BrowserWindow.instances[0]!.webContents.sent).toContainEqual([EVENT_CHANNELS.showScan, 'id-0']));
  });

  it('scans what a second launch hands over, and brings the window to the front', async () => {
    const window = BrowserWindow.instances[0]!;
    window.hide();
    app.emit('second-instance', new FakeEvent(), ['verdict', 'x'], '/ignored', { argv: ['/opt/Verdict/verdict', 'b.zip', '--flag'], cwd: '/home/u', defaultApp: false });
    await vi.waitFor(() => expect(core.calls).toContainEqual({ method: 'submit', args: [[path.resolve('/home/u/b.zip')], { origin: 'second-instance' }] }));
    expect(window.visible).toBe(true);
  });

  it('shares its secret list with the core: a key the core learns never reaches main.log', async () => {
    const secret = 'sk-remote-key-from-the-keychain-7a1c';
    // What the core does when it reads or saves a key.
    (hoisted.options[0] as CoreOptions).secrets!.add(secret);
    const submit = core.submit;
    core.submit = async () => err('queue_failed', `The service at https://scan.example.com rejected ${secret}.`);
    try {
      app.emit('second-instance', new FakeEvent(), [], '/ignored', { argv: ['/opt/Verdict/verdict', 'c.zip'], cwd: '/home/u', defaultApp: false });
      const mainLog = path.join(tmp, 'logs', 'main.log');
      await vi.waitFor(() => expect(fs.existsSync(mainLog) && fs.readFileSync(mainLog, 'utf8')).toContain('could not queue paths from a launch'));
      const text = fs.readFileSync(mainLog, 'utf8');
      expect(text).toContain('rejected [redacted]');
      expect(text).not.toContain(secret);
    } finally {
      core.submit = submit;
    }
  });

  it('puts an icon in the tray', () => {
    expect(Tray.instances).toHaveLength(1);
  });

  it('closes the core before quitting', async () => {
    app.emit('before-quit');
    const event = new FakeEvent();
    app.emit('will-quit', event);
    expect(event.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
    expect(core.calls.at(-1)).toEqual({ method: 'close', args: [] });
    expect(ipcMain.handlers.size).toBe(0);
    expect(Tray.instances[0]!.destroyed).toBe(true);
  });
});

// A path whose name is not UTF-8 across IPC: the channels' schemas take a string holding lone
// surrogates, the core gets it unchanged, and reveal (Electron takes only UTF-8 text) opens the
// nearest folder whose path is UTF-8 instead of a path that names another file.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../shared/bridge/api.ts';
import { ok } from '../../../shared/result.ts';
import { FakeWebContents, ipcMain, resetFakeElectron, shell } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, type TestCore } from './test-core.ts';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers, utf8Ancestor } from '../../../electron/shell/files.ts';
import { registerIpcHandlers } from '../../../electron/shell/ipc.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
let core: TestCore;
let window: FakeWebContents;

beforeEach(() => {
  resetFakeElectron();
  capture = captureLog();
  core = createTestCore();
  window = new FakeWebContents();
  registerIpcHandlers({ core, files: createFileHandlers(() => null), trustedWebContents: () => window as never, origins: appOrigins(null), log: capture.log });
});
afterEach(() => capture.cleanup());

function invoke(channel: string, args: unknown[]): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel)!;
  return Promise.resolve(handler({ sender: window, senderFrame: { url: 'verdict://app/index.html', parent: null } }, ...structuredClone(args)));
}

const INVALID = '/home/me/d\uDCE9/col\uDCFF.com';

describe('IPC: paths whose names are not UTF-8', () => {
  it('passes them through the schemas and structured clone unchanged', async () => {
    expect(INVOKE_CHANNELS['scans:submit'].safeParse([[INVALID]]).success).toBe(true);
    await invoke('scans:submit', [[INVALID]]);
    expect(core.calls.at(-1)).toMatchObject({ method: 'scans.submit', args: [[INVALID]] });
  });

  it('reveals such a file by opening its nearest UTF-8 folder, and any other file as before', async () => {
    expect(utf8Ancestor(INVALID)).toBe('/home/me');
    expect(utf8Ancestor('/home/me/col\uDCFF.com')).toBe('/home/me');
    await expect(invoke('files:reveal', [INVALID])).resolves.toEqual(ok(null));
    expect(shell.openPath).toHaveBeenCalledWith('/home/me');
    expect(shell.showItemInFolder).not.toHaveBeenCalled();
    await expect(invoke('files:reveal', ['/home/me/col\uFFFD.com'])).resolves.toEqual(ok(null));
    expect(shell.showItemInFolder).toHaveBeenCalledWith('/home/me/col\uFFFD.com');
  });
});

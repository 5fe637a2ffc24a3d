// Saved scans over IPC: a scan to save is checked by the shared schema before the core sees
// it; export and import go through the main process's dialogs (the window names no path),
// and a cancelled dialog does nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers } from '../../../electron/shell/files.ts';
import { registerIpcHandlers } from '../../../electron/shell/ipc.ts';
import { createSavedScanFilePickers } from '../../../electron/shell/saved-scan-files.ts';
import { dialog, FakeWebContents, ipcMain, resetFakeElectron } from '../shell/fake-electron.ts';
import { captureLog, type LogCapture } from '../shell/log-capture.ts';
import { createTestCore, type TestCore } from '../shell/test-core.ts';

vi.mock('electron', () => import('../shell/fake-electron.ts'));

let capture: LogCapture;
let core: TestCore;
let window: FakeWebContents;

beforeEach(() => {
  resetFakeElectron();
  capture = captureLog();
  core = createTestCore();
  window = new FakeWebContents();
  registerIpcHandlers({
    core,
    files: createFileHandlers(() => null),
    savedScanFiles: createSavedScanFilePickers(() => null),
    trustedWebContents: () => window as never,
    origins: appOrigins(null),
    log: capture.log,
  });
});
afterEach(() => capture.cleanup());

function invoke(channel: string, ...args: unknown[]): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler({ sender: window, senderFrame: { url: 'verdict://app/index.html', parent: null } }, ...args));
}

const savedCalls = () => core.calls.filter((call) => call.method.startsWith('savedScans.'));

describe('savedScans channels', () => {
  it('check a scan before the core sees it', async () => {
    await expect(invoke('savedScans:save', { name: 'Work', folders: ['/home/u/work'], force: true })).resolves.toMatchObject({ ok: true });
    for (const bad of [{ name: '', folders: ['/a'] }, { name: 'A', folders: [] }, { name: 'A', folders: ['relative'] }, { name: 'A', folders: ['/a'], extra: true }, 'A']) {
      await expect(invoke('savedScans:save', bad)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
    await expect(invoke('savedScans:run', 'Work')).resolves.toMatchObject({ ok: true, value: { job: { kind: 'custom' } } });
    expect(savedCalls().map((call) => call.method)).toEqual(['savedScans.save', 'savedScans.run']);
  });

  it('export and import ask for the file with the dialogs; cancelled, nothing happens', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/home/u/scans.json' } as never);
    await expect(invoke('savedScans:export')).resolves.toEqual({ ok: true, value: { count: 0 } });
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/home/u/in.json'] } as never);
    await expect(invoke('savedScans:import')).resolves.toEqual({ ok: true, value: { added: 0, replaced: 0 } });
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' } as never);
    await expect(invoke('savedScans:export')).resolves.toEqual({ ok: true, value: null });
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] } as never);
    await expect(invoke('savedScans:import')).resolves.toEqual({ ok: true, value: null });
    await expect(invoke('savedScans:export', '/etc/passwd')).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(savedCalls()).toEqual([
      { method: 'savedScans.exportTo', args: ['/home/u/scans.json'] },
      { method: 'savedScans.importFrom', args: ['/home/u/in.json'] },
    ]);
  });
});

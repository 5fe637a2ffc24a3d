// `history:export` and `settings:startupWarnings` through the real IPC handlers
// (electron mocked by fake-electron): the main process shows the save dialog
// itself, cancel answers null and writes nothing, the renderer can never name the
// path, and the start-up warnings reach the window as the core has them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StartupWarning } from '../../../shared/bridge/api.ts';
import { ok } from '../../../shared/result.ts';
import { dialog, FakeWebContents, ipcMain, resetFakeElectron } from './fake-electron.ts';
import { captureLog } from './log-capture.ts';
import { createTestCore, type TestCore } from './test-core.ts';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers } from '../../../electron/shell/files.ts';
import { exportDialogOptions } from '../../../electron/shell/history-export.ts';
import { registerIpcHandlers } from '../../../electron/shell/ipc.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let core: TestCore;
let window: FakeWebContents;

beforeEach(() => {
  resetFakeElectron();
  core = createTestCore();
  window = new FakeWebContents();
  registerIpcHandlers({ core, files: createFileHandlers(() => null), trustedWebContents: () => window as never, origins: appOrigins(null), log: captureLog().log });
});

function invoke(channel: string, ...args: unknown[]): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler({ sender: window, senderFrame: { url: 'verdict://app/index.html', parent: null } }, ...args));
}

const exportCalls = () => core.calls.filter((call) => call.method === 'history.export');

describe('history:export', () => {
  it('shows the save dialog in the main process; cancel answers null and the core writes nothing', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '/home/user/ignored.csv' });
    await expect(invoke('history:export', 'csv', { verdicts: ['unsafe'] })).resolves.toEqual(ok(null));
    expect(dialog.showSaveDialog).toHaveBeenCalledTimes(1);
    expect(dialog.showSaveDialog.mock.calls[0]![0]).toMatchObject({
      defaultPath: expect.stringMatching(/^verdict-scans-\d{4}-\d{2}-\d{2}\.csv$/),
      filters: [{ extensions: ['csv'] }],
      properties: expect.arrayContaining(['showOverwriteConfirmation']),
    });
    expect(exportCalls()).toEqual([]);
  });

  it('an empty answer from the dialog counts as cancelled too', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: undefined });
    await expect(invoke('history:export', 'json')).resolves.toEqual(ok(null));
    expect(exportCalls()).toEqual([]);
  });

  it('hands the chosen path, the format and the filter to core.history.export, and answers rows and path', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/home/user/Documents/threats.json' });
    const query = { verdicts: ['unsafe'], search: 'setup', order: 'oldest' };
    await expect(invoke('history:export', 'json', query)).resolves.toEqual(ok({ rows: 3, path: '/home/user/Documents/threats.json' }));
    expect(dialog.showSaveDialog.mock.calls[0]![0]).toMatchObject({ defaultPath: expect.stringMatching(/\.json$/), filters: [{ extensions: ['json'] }] });
    expect(exportCalls()).toEqual([{ method: 'history.export', args: ['/home/user/Documents/threats.json', { format: 'json', query }] }]);
  });

  it('passes the core’s error through (e.g. the folder is not writable)', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/read-only/x.csv' });
    core.history.export = async () => ({ ok: false, error: { code: 'export_failed', message: 'The history could not be written to /read-only/x.csv (EACCES).' } });
    await expect(invoke('history:export', 'csv')).resolves.toEqual({ ok: false, error: { code: 'export_failed', message: expect.stringContaining('EACCES') } });
  });

  it.each([
    ['an unknown format', ['xml']],
    ['no format', []],
    ['a path from the renderer', ['csv', {}, '/etc/cron.d/evil']],
    ['a path in place of the query', ['csv', '/etc/cron.d/evil']],
    ['a malformed query', ['csv', { limit: 1_000_000 }]],
    ['unknown query fields', ['csv', { verdicts: ['nope'] }]],
  ])('rejects %s before any dialog opens', async (_label, args) => {
    await expect(invoke('history:export', ...args)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
    expect(exportCalls()).toEqual([]);
  });

  it('titles the dialog in the UI’s language (the settings, or the system’s)', async () => {
    for (let i = 0; i < 3; i++) dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: undefined });
    core.settingsValue = { ...core.settingsValue, language: 'de' };
    await invoke('history:export', 'csv');
    core.settingsValue = { ...core.settingsValue, language: 'system' };
    core.settings.systemLanguage = async () => ok('de' as const);
    await invoke('history:export', 'csv');
    core.settingsValue = { ...core.settingsValue, language: 'en' };
    await invoke('history:export', 'csv');
    expect(dialog.showSaveDialog.mock.calls.map((call) => (call[0] as { title: string }).title)).toEqual(['Prüfungen exportieren', 'Prüfungen exportieren', 'Export scans']);
  });

  it('names the default file after the local date', () => {
    expect(exportDialogOptions('csv', 'en', new Date(2026, 10, 3, 23, 59))).toMatchObject({ defaultPath: 'verdict-scans-2026-11-03.csv', title: 'Export scans' });
  });
});

describe('settings:startupWarnings', () => {
  it('answers the core’s warnings as they are', async () => {
    const warnings: StartupWarning[] = [
      { code: 'settings_damaged', message: 'The settings file was damaged (…); it was set aside as settings.json.corrupt-1 and default settings are in use.', file: 'settings.json.corrupt-1' },
      { code: 'quarantine_files_lost', message: '2 quarantined files are missing …', count: 2 },
    ];
    Object.assign(core, { startupWarnings: warnings });
    await expect(invoke('settings:startupWarnings')).resolves.toEqual(ok(warnings));
    await expect(invoke('settings:startupWarnings', 'extra')).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});

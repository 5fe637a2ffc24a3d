import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS, type InvokeChannel } from '../../../shared/bridge/api.ts';
import { ok } from '../../../shared/result.ts';
import type { ScanEvent } from '../../../shared/scans/record.ts';
import { clipboard, dialog, FakeWebContents, ipcMain, resetFakeElectron, shell } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, folderStatus, protectionView, scanRecord, type TestCore } from './test-core.ts';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers } from '../../../electron/shell/files.ts';
import { forwardEvents, registerIpcHandlers, scanEventKey, type IpcOptions } from '../../../electron/shell/ipc.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
}

let capture: LogCapture;
let core: TestCore;
let window: FakeWebContents;
let options: IpcOptions;

beforeEach(() => {
  resetFakeElectron();
  capture = captureLog();
  core = createTestCore();
  window = new FakeWebContents();
  options = {
    core,
    files: createFileHandlers(() => null),
    trustedWebContents: () => window as never,
    origins: appOrigins(null),
    log: capture.log,
  };
  registerIpcHandlers(options);
});
afterEach(() => capture.cleanup());

const mainFrame = (url = 'verdict://app/index.html'): FakeFrame => ({ url, parent: null });

/** Calls a registered handler the way Electron does: (event, ...args). */
function invoke(channel: string, args: unknown[], from: { sender?: FakeWebContents; frame?: FakeFrame | null } = {}): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  const event = { sender: from.sender ?? window, senderFrame: from.frame === undefined ? mainFrame() : from.frame };
  return Promise.resolve(handler(event, ...args));
}

describe('registration', () => {
  it('registers exactly the contract channels', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual(Object.keys(INVOKE_CHANNELS).sort());
  });

  it('unregisters them again', () => {
    resetFakeElectron();
    const unregister = registerIpcHandlers(options);
    expect(ipcMain.handlers.size).toBe(Object.keys(INVOKE_CHANNELS).length);
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });
});

describe('sender check', () => {
  it('forwards a message from our window main frame at the app origin', async () => {
    await expect(invoke('scans:get', ['abc'])).resolves.toMatchObject({ ok: true, value: { id: 'abc' } });
    expect(core.calls).toEqual([{ method: 'scans.get', args: ['abc'] }]);
  });

  it.each([
    ['a foreign origin', { frame: mainFrame('https://evil.example/') }],
    ['a file:// page', { frame: mainFrame('file:///tmp/evil.html') }],
    ['another custom scheme host', { frame: mainFrame('verdict://evil/index.html') }],
    ['a subframe at the app origin', { frame: { url: 'verdict://app/frame.html', parent: mainFrame() } }],
    ['a disposed frame', { frame: null }],
    ['another web contents at the app origin', { sender: new FakeWebContents() }],
    ['the dev server when not in development', { frame: mainFrame('http://localhost:5173/') }],
  ])('drops a message from %s and logs it', async (_name, from) => {
    const result = await invoke('scans:submit', [['/etc/passwd']], from);
    expect(result).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } });
    expect(core.calls).toEqual([]);
    expect(capture.lines().some((line) => line.msg === 'IPC from an untrusted sender dropped' && line.channel === 'scans:submit')).toBe(true);
  });

  it('drops everything while there is no window', async () => {
    options.trustedWebContents = () => null;
    await expect(invoke('settings:get', [])).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('accepts the dev server origin in development', async () => {
    resetFakeElectron();
    registerIpcHandlers({ ...options, origins: appOrigins('http://localhost:5173/') });
    await expect(invoke('scans:counts', [], { frame: mainFrame('http://localhost:5173/') })).resolves.toMatchObject({ ok: true });
  });
});

describe('argument validation', () => {
  it.each<[InvokeChannel, unknown[]]>([
    ['scans:get', []],
    ['scans:get', [42]],
    ['scans:get', ['']],
    ['scans:get', ['a', 'extra']],
    ['scans:submit', [[]]],
    ['scans:submit', ['/not/an/array']],
    ['scans:submit', [['/a'], { mode: 'turbo' }]],
    ['scans:submit', [['/a'], { mode: 'sync', origin: 'watch' }]],
    ['scans:list', [{ limit: 1_000_000 }]],
    ['files:pick', ['everything']],
    ['settings:update', [{ language: 'fr' }]],
    ['settings:update', [{ apiKey: 'sneaky' }]],
    ['watch:setAllPaused', ['yes']],
    ['watch:update', ['id', { path: '/elsewhere' }]],
    ['watch:update', ['id', { threatAction: 'delete' }]],
    ['scans:submit', [['/a'], { consent: 'https://scan.example.com/path' }]],
    ['scans:submit', [['/a'], { consent: 'ftp://scan.example.com' }]],
    ['scans:rescan', ['id', { consent: 'not a url' }]],
    ['scans:rescan', ['id', { force: true }]],
    ['scans:allowUpload', [[], 'https://scan.example.com']],
    ['scans:digests', []],
    ['scans:digests', ['']],
    ['scans:digests', [['id']]],
    ['scans:digests', ['id', { path: '/etc/shadow' }]],
    ['scans:scanWithBasicChecks', [[]]],
    ['scans:scanWithBasicChecks', ['id']],
    ['scans:scanWithBasicChecks', [['']]],
    ['scans:scanWithBasicChecks', [[42]]],
    ['scans:scanWithBasicChecks', [['id'], { force: true }]],
    ['scans:scanWithBasicChecks', [Array.from({ length: 10_001 }, (_, i) => `s${i}`)]],
    ['scans:allowUpload', [['id'], 'https://user:pw@scan.example.com']],
    ['quarantine:list', [{ include: 'deleted' }]],
    ['quarantine:add', [[]]],
    ['quarantine:add', ['r1']],
    ['quarantine:restore', ['q1', { to: '' }]],
    ['quarantine:restore', ['q1', { to: '/x', overwrite: true }]],
    ['quarantine:restoreMany', [['q1'], { to: '/x' }]],
    ['quarantine:allowMany', [['q1'], { toFolder: 7 }]],
    ['quarantine:deleteMany', [Array.from({ length: 10_001 }, (_, i) => `q${i}`)]],
    ['quarantine:allowRecord', ['']],
    ['quarantine:revokeAllowed', ['not-a-digest']],
    ['quarantine:allowName', ['']],
    ['quarantine:allowName', ['x'.repeat(257)]],
    ['quarantine:allowName', ['Win.A\nWin.B']],
    ['quarantine:allowName', [42]],
    ['quarantine:nameAllowPreview', []],
    ['quarantine:revokeAllowedName', ['Win.A\u2028']],
    ['quarantine:allowedNames', ['Win.A']],
    // The list changes only through the allow-name channels, which keep the history in step.
    ['settings:update', [{ allowedDetectionNames: ['Win.A'] }]],
    ['history:clear', [{ everything: true }]],
    ['files:pickSaveLocation', [42]],
    ['settings:update', [{ threatAction: 'delete' }]],
    ['settings:update', [{ maxAutoScanSize: 0 }]],
    ['settings:update', [{ remoteUploadConsentHosts: ['https://scan.example.com/api'] }]],
    ['settings:update', [{ historyRetention: { keepDays: 0 } }]],
    ['settings:update', [{ exclusions: { extensions: ['a/b'] } }]],
    ['protection:status', ['now']],
    ['protection:refresh', [{ force: true }]],
    ['protection:updateSignatures', ['/var/lib/clamav']],
    ['feeds:add', [{ url: 'https://example.org/a.ndb', path: '/etc/passwd' }]],
    ['feeds:add', [{ url: `https://example.org/${'a'.repeat(3000)}.ndb` }]],
    ['feeds:setEnabled', ['../../etc', false]],
    ['feeds:setEnabled', ['urlhaus', 'yes']],
  ])('%s with %j answers invalid_argument without calling the handler', async (channel, args) => {
    const result = (await invoke(channel, args)) as { ok: boolean; error: { code: string; message: string } };
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('invalid_argument');
    expect(result.error.message.length).toBeGreaterThan(0);
    expect(core.calls).toEqual([]);
  });

  it('never echoes the rejected value (it may be a secret)', async () => {
    const secret = 'sk_live_'.padEnd(5000, 'x');
    const result = (await invoke('settings:setApiKey', [secret])) as { error: { message: string } };
    expect(result.error.message).not.toContain('sk_live_');
    expect(JSON.stringify(capture.lines())).not.toContain('sk_live_');
  });

  it('passes the validated arguments on as sent: a patch stays a patch (no schema defaults filled in)', async () => {
    await invoke('scans:list', [{ search: 'eicar' }]);
    await invoke('settings:update', [{ notifyClean: true }]);
    await invoke('watch:update', ['f1', { paused: true }]);
    expect(core.calls).toEqual([
      { method: 'scans.list', args: [{ search: 'eicar' }] },
      { method: 'settings.update', args: [{ notifyClean: true }] },
      { method: 'watch.update', args: ['f1', { paused: true }] },
    ]);
  });

  it('accepts an omitted optional argument', async () => {
    await expect(invoke('scans:submit', [['/home/user/a.txt']])).resolves.toMatchObject({ ok: true, value: { queued: 1 } });
  });
});

describe('errors', () => {
  it('turns an exception into a Result with a code and no stack or internals', async () => {
    core.scans.get = async () => {
      throw new Error('SQLITE_CORRUPT at /home/user/.config/Verdict/history.sqlite\n    at Database.prepare');
    };
    const result = (await invoke('scans:get', ['x'])) as { ok: boolean; error: { code: string; message: string } };
    expect(result).toEqual({ ok: false, error: { code: 'internal_error', message: expect.any(String) } });
    expect(result.error.message).not.toMatch(/SQLITE|history\.sqlite|at Database/);
    const logged = capture.lines().find((line) => line.msg === 'IPC handler failed');
    expect(logged?.channel).toBe('scans:get');
    expect(JSON.stringify(logged?.err)).toContain('SQLITE_CORRUPT');
  });

  it('also handles a synchronous throw and a non-Result return', async () => {
    core.settings.get = (() => {
      throw new TypeError('boom');
    }) as never;
    await expect(invoke('settings:get', [])).resolves.toMatchObject({ ok: false, error: { code: 'internal_error' } });
    core.scans.counts = (async () => ({ queued: 1 })) as never;
    await expect(invoke('scans:counts', [])).resolves.toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });

  it('passes the core error Results through untouched', async () => {
    core.scans.rescan = async () => ({ ok: false, error: { code: 'not_found', message: 'No such scan.' } });
    await expect(invoke('scans:rescan', ['missing'])).resolves.toEqual({ ok: false, error: { code: 'not_found', message: 'No such scan.' } });
  });
});

describe('routing', () => {
  it('sends every core channel to core[ns][method] with the parsed arguments', async () => {
    await invoke('settings:update', [{ notifyClean: true }]);
    await invoke('watch:update', ['f1', { paused: true }]);
    await invoke('watch:setAllPaused', [true]);
    await invoke('scans:rescan', ['s1']);
    expect(core.calls).toEqual([
      { method: 'settings.update', args: [{ notifyClean: true }] },
      { method: 'watch.update', args: ['f1', { paused: true }] },
      { method: 'watch.setAllPaused', args: [true] },
      { method: 'scans.rescan', args: ['s1'] },
    ]);
  });

  it('sends the allow-name channels to the core as given', async () => {
    await invoke('quarantine:nameAllowPreview', ['Win.Tool.Foo-123']);
    await invoke('quarantine:allowName', ['Win.Tool.Foo-123']);
    await invoke('quarantine:allowedNames', []);
    await invoke('quarantine:revokeAllowedName', ['Win.Tool.Foo-123']);
    expect(core.calls).toEqual([
      { method: 'quarantine.nameAllowPreview', args: ['Win.Tool.Foo-123'] },
      { method: 'quarantine.allowName', args: ['Win.Tool.Foo-123'] },
      { method: 'quarantine.allowedNames', args: [] },
      { method: 'quarantine.revokeAllowedName', args: ['Win.Tool.Foo-123'] },
    ]);
  });

  it('sends the quarantine, history and upload-consent channels to the core as given', async () => {
    await invoke('quarantine:add', [['r1', 'r2']]);
    await invoke('quarantine:restore', ['q1', { to: '/home/user/elsewhere.exe' }]);
    await invoke('quarantine:allow', ['q1']);
    await invoke('quarantine:restoreMany', [['q1', 'q2'], { toFolder: '/home/user/restored' }]);
    await invoke('quarantine:allowMany', [['q3']]);
    await invoke('quarantine:deleteMany', [['q4']]);
    await invoke('quarantine:allowRecord', ['r3']);
    await invoke('quarantine:revokeAllowed', ['A'.repeat(64)]);
    await invoke('quarantine:list', []);
    await invoke('quarantine:forRecord', ['r1']);
    await invoke('quarantine:allowed', []);
    await invoke('history:clear', []);
    await invoke('scans:allowUpload', [['s1'], 'https://scan.example.com']);
    await invoke('scans:scanWithBasicChecks', [['s1', 's2']]);
    await invoke('scans:submit', [['/home/user/a'], { consent: 'http://127.0.0.1:8080' }]);
    await invoke('scans:rescan', ['s1', { consent: 'https://scan.example.com' }]);
    await invoke('settings:update', [{ threatAction: 'quarantine', historyRetention: { keepScans: 100 } }]);
    expect(core.calls).toEqual([
      { method: 'quarantine.add', args: [['r1', 'r2']] },
      { method: 'quarantine.restore', args: ['q1', { to: '/home/user/elsewhere.exe' }] },
      { method: 'quarantine.allow', args: ['q1'] },
      { method: 'quarantine.restoreMany', args: [['q1', 'q2'], { toFolder: '/home/user/restored' }] },
      { method: 'quarantine.allowMany', args: [['q3']] },
      { method: 'quarantine.deleteMany', args: [['q4']] },
      { method: 'quarantine.allowRecord', args: ['r3'] },
      { method: 'quarantine.revokeAllowed', args: ['A'.repeat(64)] },
      { method: 'quarantine.list', args: [] },
      { method: 'quarantine.forRecord', args: ['r1'] },
      { method: 'quarantine.allowed', args: [] },
      { method: 'history.clear', args: [] },
      { method: 'scans.allowUpload', args: [['s1'], 'https://scan.example.com'] },
      { method: 'scans.scanWithBasicChecks', args: [['s1', 's2']] },
      { method: 'scans.submit', args: [['/home/user/a'], { consent: 'http://127.0.0.1:8080' }] },
      { method: 'scans.rescan', args: ['s1', { consent: 'https://scan.example.com' }] },
      { method: 'settings.update', args: [{ threatAction: 'quarantine', historyRetention: { keepScans: 100 } }] },
    ]);
  });

  it('answers files:pickSaveLocation with the save dialog: the chosen path, or null when cancelled', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/home/user/Desktop/eicar (restored).com' });
    await expect(invoke('files:pickSaveLocation', ['eicar.com'])).resolves.toEqual(ok('/home/user/Desktop/eicar (restored).com'));
    expect(dialog.showSaveDialog.mock.calls[0]![0]).toMatchObject({ defaultPath: 'eicar.com' });
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '/ignored' });
    await expect(invoke('files:pickSaveLocation', ['eicar.com'])).resolves.toEqual(ok(null));
    // The renderer names a file, never where the dialog opens.
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/home/user/x' });
    await invoke('files:pickSaveLocation', ['/etc/../etc/passwd']);
    expect(dialog.showSaveDialog.mock.calls[2]![0]).toMatchObject({ defaultPath: 'passwd' });
    expect(core.calls).toEqual([]);
  });

  it('answers files:* in the shell: dialog, reveal, clipboard', async () => {
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/home/user/a', '/home/user/b'] });
    await expect(invoke('files:pick', ['files'])).resolves.toEqual(ok(['/home/user/a', '/home/user/b']));
    expect(dialog.showOpenDialog.mock.calls[0]![0]).toMatchObject({ properties: ['openFile', 'multiSelections'] });

    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: ['/ignored'] });
    await expect(invoke('files:pick', ['folder'])).resolves.toEqual(ok([]));
    expect(dialog.showOpenDialog.mock.calls[1]![0]).toMatchObject({ properties: ['openDirectory'] });

    await expect(invoke('files:reveal', ['/home/user/a'])).resolves.toEqual(ok(null));
    expect(shell.showItemInFolder).toHaveBeenCalledWith('/home/user/a');
    await expect(invoke('files:reveal', ['relative/path'])).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(shell.showItemInFolder).toHaveBeenCalledTimes(1);

    await expect(invoke('files:copyText', ['3f9a…'])).resolves.toEqual(ok(null));
    expect(clipboard.writeText).toHaveBeenCalledWith('3f9a…');
    expect(core.calls).toEqual([]);
  });
});

describe('protection', () => {
  it('routes status, refresh and updateSignatures to core.protection and answers with its Results', async () => {
    await expect(invoke('protection:status', [])).resolves.toEqual(ok(core.protectionValue));
    await expect(invoke('protection:refresh', [])).resolves.toEqual(ok(core.protectionValue));
    await expect(invoke('protection:updateSignatures', [])).resolves.toMatchObject({ ok: true, value: { code: 'current' } });
    expect(core.calls).toEqual([
      { method: 'protection.refresh', args: [] },
      { method: 'protection.updateSignatures', args: [] },
    ]);
  });

  it('forwards each protection change to the window as it comes, and stops on dispose', () => {
    const forwarding = forwardEvents({ core, target: () => window as never });
    const outdated = protectionView({ update: { phase: 'running', line: 'daily.cvd: 10 %', last: null } });
    core.emitProtection(outdated);
    expect(window.sent).toEqual([[EVENT_CHANNELS.protectionChange, outdated]]);
    forwarding.dispose();
    core.emitProtection(protectionView());
    expect(window.sent).toHaveLength(1);
  });
});

describe('events to the window', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('batches scan events, coalescing progress and counts', () => {
    const forwarding = forwardEvents({ core, target: () => window as never, delayMs: 50 });
    for (let sent = 0; sent <= 1000; sent += 10) core.emit({ type: 'progress', progress: { id: 's1', sent, total: 1000 } });
    core.emit({ type: 'counts', counts: { queued: 3, uploading: 1, processing: 0 } });
    core.emit({ type: 'counts', counts: { queued: 2, uploading: 1, processing: 1 } });
    core.emit({ type: 'record', record: scanRecord({ id: 's1' }) });
    core.emit({ type: 'removed', ids: ['old'] });
    expect(window.sent).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(window.sent).toHaveLength(1);
    const [channel, batch] = window.sent[0]! as [string, ScanEvent[]];
    expect(channel).toBe(EVENT_CHANNELS.scanEvent);
    expect(batch.map((event) => event.type)).toEqual(['progress', 'counts', 'record', 'removed']);
    expect(batch[0]).toEqual({ type: 'progress', progress: { id: 's1', sent: 1000, total: 1000 } });
    expect(batch[1]).toEqual({ type: 'counts', counts: { queued: 2, uploading: 1, processing: 1 } });
    forwarding.dispose();
    expect(core.listenerCount()).toBe(0);
  });

  it('forwards folder changes and show-scan requests, and nothing to a destroyed window', () => {
    const forwarding = forwardEvents({ core, target: () => window as never });
    core.emitWatch([folderStatus('f1')]);
    forwarding.showScan('s9');
    expect(window.sent).toEqual([
      [EVENT_CHANNELS.watchChange, [folderStatus('f1')]],
      [EVENT_CHANNELS.showScan, 's9'],
    ]);
    window.destroyed = true;
    forwarding.showScan('s10');
    expect(window.sent).toHaveLength(2);
  });

  it('waits for a loading window to finish before sending', () => {
    const forwarding = forwardEvents({ core, target: () => window as never });
    window.loading = true;
    forwarding.showScan('s1');
    expect(window.sent).toEqual([]);
    window.emit('did-finish-load');
    expect(window.sent).toEqual([[EVENT_CHANNELS.showScan, 's1']]);
  });

  it('keys events so that only repeats of the same thing coalesce', () => {
    expect(scanEventKey({ type: 'progress', progress: { id: 'a', sent: 1, total: 2 } })).toBe('progress:a');
    expect(scanEventKey({ type: 'record', record: scanRecord({ id: 'a' }) })).toBe('record:a');
    expect(scanEventKey({ type: 'counts', counts: { queued: 0, uploading: 0, processing: 0 } })).toBe('counts');
    expect(scanEventKey({ type: 'removed', ids: ['a'] })).toBeNull();
  });
});

import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS, type VerdictApi } from '../../../shared/bridge/api.ts';
import { scanRecord } from './test-core.ts';
import { contextBridge, ipcRenderer, resetFakeElectron, webUtils } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let api: VerdictApi;

beforeAll(async () => {
  resetFakeElectron();
  await import('../../../electron/preload.ts');
  api = contextBridge.exposed.get('verdict') as VerdictApi;
});

beforeEach(() => {
  ipcRenderer.invoke.mockClear();
  ipcRenderer.removeAllListeners();
});

/** The API's method names as `ns.method`. */
function exposedNames(value: VerdictApi): string[] {
  return Object.entries(value).flatMap(([ns, methods]) => Object.keys(methods as object).map((method) => `${ns}.${method}`));
}

describe('what the preload exposes', () => {
  it('exposes one object, as window.verdict', () => {
    expect([...contextBridge.exposed.keys()]).toEqual(['verdict']);
  });

  it('has exactly the VerdictApi names: one method per invoke channel, plus pathFor and the subscriptions', () => {
    const expected = [
      ...Object.keys(INVOKE_CHANNELS).map((channel) => channel.replace(':', '.')),
      'files.pathFor',
      'scans.onEvent',
      'watch.onChange',
      'protection.onChange',
      'scanJobs.onEvent',
      'app.onShowScan',
    ];
    expect(exposedNames(api).sort()).toEqual(expected.sort());
  });

  it('holds only functions, never ipcRenderer or any of its methods', () => {
    const forbidden = new Set<unknown>([ipcRenderer, ipcRenderer.invoke, ipcRenderer.send, ipcRenderer.on, ipcRenderer.emit]);
    const walk = (value: unknown, where: string): void => {
      expect(forbidden.has(value), where).toBe(false);
      if (typeof value === 'object' && value !== null) for (const [key, inner] of Object.entries(value)) walk(inner, `${where}.${key}`);
      else expect(typeof value, where).toBe('function');
    };
    for (const [ns, methods] of Object.entries(api)) {
      expect(typeof methods).toBe('object');
      walk(methods, ns);
    }
  });
});

describe('named methods', () => {
  it('invoke their contract channel with the given arguments', async () => {
    const cases: Array<[string, () => Promise<unknown>, unknown[]]> = [
      ['scans:submit', () => api.scans.submit(['/a', '/b'], { mode: 'sync', consent: 'https://scan.example.com' }), [['/a', '/b'], { mode: 'sync', consent: 'https://scan.example.com' }]],
      ['scans:list', () => api.scans.list({ search: 'x' }), [{ search: 'x' }]],
      ['scans:get', () => api.scans.get('id1'), ['id1']],
      ['scans:rescan', () => api.scans.rescan('id2', { consent: 'https://scan.example.com' }), ['id2', { consent: 'https://scan.example.com' }]],
      ['scans:counts', () => api.scans.counts(), []],
      ['scans:basicOnlyCount', () => api.scans.basicOnlyCount(), []],
      ['scans:rescanBasicOnly', () => api.scans.rescanBasicOnly(), []],
      ['scans:scanWithBasicChecks', () => api.scans.scanWithBasicChecks(['id4']), [['id4']]],
      ['scans:allowUpload', () => api.scans.allowUpload(['id3'], 'https://scan.example.com'), [['id3'], 'https://scan.example.com']],
      ['scans:digests', () => api.scans.digests('id5'), ['id5']],
      ['quarantine:list', () => api.quarantine.list({ include: 'all' }), [{ include: 'all' }]],
      ['quarantine:forRecord', () => api.quarantine.forRecord('r1'), ['r1']],
      ['quarantine:add', () => api.quarantine.add(['r1', 'r2']), [['r1', 'r2']]],
      ['quarantine:restore', () => api.quarantine.restore('q1', { to: '/elsewhere/a.exe' }), ['q1', { to: '/elsewhere/a.exe' }]],
      ['quarantine:allow', () => api.quarantine.allow('q1'), ['q1']],
      ['quarantine:restoreMany', () => api.quarantine.restoreMany(['q1'], { toFolder: '/restored' }), [['q1'], { toFolder: '/restored' }]],
      ['quarantine:allowMany', () => api.quarantine.allowMany(['q1', 'q2']), [['q1', 'q2']]],
      ['quarantine:deleteMany', () => api.quarantine.deleteMany(['q1']), [['q1']]],
      ['quarantine:allowRecord', () => api.quarantine.allowRecord('r1'), ['r1']],
      ['quarantine:allowed', () => api.quarantine.allowed(), []],
      ['quarantine:revokeAllowed', () => api.quarantine.revokeAllowed('a'.repeat(64)), ['a'.repeat(64)]],
      ['quarantine:allowedNames', () => api.quarantine.allowedNames(), []],
      ['quarantine:nameAllowPreview', () => api.quarantine.nameAllowPreview('Win.Tool.Foo-123'), ['Win.Tool.Foo-123']],
      ['quarantine:allowName', () => api.quarantine.allowName('Win.Tool.Foo-123'), ['Win.Tool.Foo-123']],
      ['quarantine:revokeAllowedName', () => api.quarantine.revokeAllowedName('Win.Tool.Foo-123'), ['Win.Tool.Foo-123']],
      ['history:clear', () => api.history.clear(), []],
      ['history:export', () => api.history.export('csv', { verdicts: ['unsafe'] }), ['csv', { verdicts: ['unsafe'] }]],
      ['files:pick', () => api.files.pick('folder'), ['folder']],
      ['files:pickSaveLocation', () => api.files.pickSaveLocation('a.exe'), ['a.exe']],
      ['files:reveal', () => api.files.reveal('/a'), ['/a']],
      ['files:copyText', () => api.files.copyText('abc'), ['abc']],
      ['settings:get', () => api.settings.get(), []],
      ['settings:update', () => api.settings.update({ notifyClean: true }), [{ notifyClean: true }]],
      ['settings:keyStatus', () => api.settings.keyStatus(), []],
      ['settings:setApiKey', () => api.settings.setApiKey('k'), ['k']],
      ['settings:clearApiKey', () => api.settings.clearApiKey(), []],
      ['settings:testConnection', () => api.settings.testConnection(), []],
      ['settings:systemLanguage', () => api.settings.systemLanguage(), []],
      ['settings:startupWarnings', () => api.settings.startupWarnings(), []],
      ['watch:list', () => api.watch.list(), []],
      ['watch:add', () => api.watch.add({ path: '/w' }), [{ path: '/w' }]],
      ['watch:update', () => api.watch.update('f', { paused: true }), ['f', { paused: true }]],
      ['watch:remove', () => api.watch.remove('f'), ['f']],
      ['watch:setAllPaused', () => api.watch.setAllPaused(true), [true]],
      ['protection:status', () => api.protection.status(), []],
      ['protection:refresh', () => api.protection.refresh(), []],
      ['protection:updateSignatures', () => api.protection.updateSignatures(), []],
      ['scanJobs:start', () => api.scanJobs.start({ kind: 'custom', roots: ['/home/u/Pictures'] }), [{ kind: 'custom', roots: ['/home/u/Pictures'] }]],
      ['scanJobs:pause', () => api.scanJobs.pause(3), [3]],
      ['scanJobs:resume', () => api.scanJobs.resume(3), [3]],
      ['scanJobs:cancel', () => api.scanJobs.cancel(3), [3]],
      ['scanJobs:list', () => api.scanJobs.list(), []],
      ['scanJobs:get', () => api.scanJobs.get(3), [3]],
      ['fileManagerMenus:status', () => api.fileManagerMenus.status(), []],
      ['fileManagerMenus:add', () => api.fileManagerMenus.add('de'), ['de']],
      ['fileManagerMenus:remove', () => api.fileManagerMenus.remove(), []],
      ['savedScans:list', () => api.savedScans.list(), []],
      ['savedScans:save', () => api.savedScans.save({ name: 'A', folders: ['/a'] }), [{ name: 'A', folders: ['/a'] }]],
      ['savedScans:remove', () => api.savedScans.remove('A'), ['A']],
      ['savedScans:run', () => api.savedScans.run('A'), ['A']],
      ['savedScans:export', () => api.savedScans.export(), []],
      ['savedScans:import', () => api.savedScans.import(), []],
      ['virusTotal:lookup', () => api.virusTotal.lookup('a'.repeat(64)), ['a'.repeat(64)]],
      ['virusTotal:keyStatus', () => api.virusTotal.keyStatus(), []],
      ['virusTotal:setKey', () => api.virusTotal.setKey('k'), ['k']],
      ['virusTotal:clearKey', () => api.virusTotal.clearKey(), []],
      ['feeds:list', () => api.feeds.list(), []],
      ['feeds:add', () => api.feeds.add({ url: 'https://example.org/a.ndb' }), [{ url: 'https://example.org/a.ndb' }]],
      ['feeds:setEnabled', () => api.feeds.setEnabled('urlhaus', true), ['urlhaus', true]],
      ['feeds:remove', () => api.feeds.remove('a'), ['a']],
      ['feeds:update', () => api.feeds.update(), []],
      ['overview:get', () => api.overview.get({ utcOffsetMinutes: 60 }), [{ utcOffsetMinutes: 60 }]],
      ['rules:list', () => api.rules.list(), []],
      ['rules:import', () => api.rules.import(['/home/user/rules.yar']), [['/home/user/rules.yar']]],
      ['rules:remove', () => api.rules.remove('VerdictGood'), ['VerdictGood']],
    ];
    expect(cases.map(([channel]) => channel).sort()).toEqual(Object.keys(INVOKE_CHANNELS).sort());
    for (const [channel, call, args] of cases) {
      ipcRenderer.invoke.mockClear();
      await call();
      expect(ipcRenderer.invoke.mock.calls, channel).toEqual([[channel, ...args]]);
    }
  });

  it('leaves out an omitted optional argument instead of sending undefined', async () => {
    await api.scans.submit(['/a']);
    expect(ipcRenderer.invoke.mock.calls).toEqual([['scans:submit', ['/a']]]);
  });

  it('resolve with what the main process answered', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'forbidden', message: 'no' } });
    await expect(api.scans.counts()).resolves.toEqual({ ok: false, error: { code: 'forbidden', message: 'no' } });
  });

  it('turns a dropped File into its path with webUtils.getPathForFile', () => {
    const file = { name: 'eicar.com', size: 68 };
    expect(api.files.pathFor(file)).toBe('/dropped/eicar.com');
    expect(webUtils.getPathForFile).toHaveBeenCalledWith(file);
  });
});

describe('subscriptions', () => {
  const fakeEvent = { sender: ipcRenderer, ports: [] };

  it('deliver scan events one by one from a batch, without the IpcRendererEvent', () => {
    const received: unknown[][] = [];
    api.scans.onEvent((...args) => received.push(args));
    const events = [
      { type: 'counts', counts: { queued: 1, uploading: 0, processing: 0 } },
      { type: 'record', record: scanRecord() },
    ];
    ipcRenderer.emit(EVENT_CHANNELS.scanEvent, fakeEvent, events);
    expect(received).toEqual([[events[0]], [events[1]]]);
  });

  it('remove exactly their own listener, once', () => {
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = api.app.onShowScan(first);
    api.app.onShowScan(second);
    expect(ipcRenderer.listenerCount(EVENT_CHANNELS.showScan)).toBe(2);

    stopFirst();
    stopFirst();
    expect(ipcRenderer.listenerCount(EVENT_CHANNELS.showScan)).toBe(1);
    ipcRenderer.emit(EVENT_CHANNELS.showScan, fakeEvent, 'scan-7');
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('scan-7');
    expect(second.mock.calls[0]).toHaveLength(1);
  });

  it('delivers protection changes to the listener, payload only, until unsubscribed', () => {
    const listener = vi.fn();
    const stop = api.protection.onChange(listener);
    const view = { status: null, remote: 'https://scan.example.com', databaseDir: null, update: { phase: 'idle', last: null }, checkedAt: '2025-01-01T00:00:00.000Z' };
    ipcRenderer.emit(EVENT_CHANNELS.protectionChange, fakeEvent, view);
    stop();
    ipcRenderer.emit(EVENT_CHANNELS.protectionChange, fakeEvent, view);
    expect(listener.mock.calls).toEqual([[view]]);
  });

  it('delivers job updates to the listener, payload only, until unsubscribed', () => {
    const listener = vi.fn();
    const stop = api.scanJobs.onEvent(listener);
    const update = { type: 'removed', ids: [4] };
    ipcRenderer.emit(EVENT_CHANNELS.jobUpdate, fakeEvent, update);
    stop();
    ipcRenderer.emit(EVENT_CHANNELS.jobUpdate, fakeEvent, update);
    expect(listener.mock.calls).toEqual([[update]]);
  });

  it('unsubscribing one of two identical listeners keeps the other', () => {
    const listener = vi.fn();
    const stopA = api.watch.onChange(listener);
    api.watch.onChange(listener);
    stopA();
    ipcRenderer.emit(EVENT_CHANNELS.watchChange, fakeEvent, []);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith([]);
  });

  it('a throwing listener does not stop the rest of the batch', () => {
    const seen: string[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    api.scans.onEvent((event) => {
      if (event.type === 'removed') throw new Error('listener bug');
      seen.push(event.type);
    });
    ipcRenderer.emit(EVENT_CHANNELS.scanEvent, fakeEvent, [{ type: 'removed', ids: [] }, { type: 'counts', counts: { queued: 0, uploading: 0, processing: 0 } }]);
    expect(seen).toEqual(['counts']);
    expect(errors).toHaveBeenCalledTimes(1);
    errors.mockRestore();
  });

  it('ignores a show-scan message that is not an id', () => {
    const listener = vi.fn();
    api.app.onShowScan(listener);
    ipcRenderer.emit(EVENT_CHANNELS.showScan, fakeEvent, { id: 'x' });
    expect(listener).not.toHaveBeenCalled();
  });
});

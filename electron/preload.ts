// The preload: exposes `window.verdict` (the shared VerdictApi) as named methods
// over IPC and cancellable subscriptions. ipcRenderer itself is never exposed and
// listeners never see the IpcRendererEvent. Bundled to dist-electron/preload.cjs:
// a sandboxed preload can require only `electron`, so this file imports nothing
// else at runtime (the contract is imported for its types only).
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { EVENT_CHANNELS, InvokeChannel, JobUpdate, ProtectionView, Unsubscribe, VerdictApi, WatchedFolderStatus } from '../shared/bridge/api.ts';
import type { ScanEvent } from '../shared/scans/record.ts';

/** A copy of the contract's event channels; the type makes the compiler check every name. */
const EVENTS: typeof EVENT_CHANNELS = {
  scanEvent: 'scans:event',
  watchChange: 'watch:change',
  showScan: 'app:showScan',
  protectionChange: 'protection:change',
  jobUpdate: 'scanJobs:event',
};

/** Invokes a contract channel, leaving out trailing undefined (optional) arguments. */
function invoke(channel: InvokeChannel, ...args: unknown[]): Promise<never> {
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return ipcRenderer.invoke(channel, ...args) as Promise<never>;
}

/** Listens on one channel; the returned function removes exactly this listener, once. */
function subscribe(channel: string, deliver: (payload: unknown) => void): Unsubscribe {
  const listener = (_event: IpcRendererEvent, payload: unknown) => deliver(payload);
  ipcRenderer.on(channel, listener);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    ipcRenderer.removeListener(channel, listener);
  };
}

/** One listener failing must not stop the rest of a batch. */
function safely<T>(listener: (value: T) => void, value: T): void {
  try {
    listener(value);
  } catch (error) {
    console.error(error);
  }
}

export const api: VerdictApi = {
  scans: {
    submit: (paths, options) => invoke('scans:submit', paths, options),
    list: (query) => invoke('scans:list', query),
    get: (id) => invoke('scans:get', id),
    rescan: (id, options) => invoke('scans:rescan', id, options),
    counts: () => invoke('scans:counts'),
    basicOnlyCount: () => invoke('scans:basicOnlyCount'),
    rescanBasicOnly: () => invoke('scans:rescanBasicOnly'),
    scanWithBasicChecks: (ids) => invoke('scans:scanWithBasicChecks', ids),
    digests: (id) => invoke('scans:digests', id),
    allowUpload: (ids, origin) => invoke('scans:allowUpload', ids, origin),
    // Scan events arrive batched (an array per message) and are delivered one by one.
    onEvent: (listener) =>
      subscribe(EVENTS.scanEvent, (payload) => {
        for (const event of Array.isArray(payload) ? (payload as ScanEvent[]) : [payload as ScanEvent]) safely(listener, event);
      }),
  },
  quarantine: {
    list: (options) => invoke('quarantine:list', options),
    forRecord: (recordId) => invoke('quarantine:forRecord', recordId),
    add: (recordIds) => invoke('quarantine:add', recordIds),
    restore: (entryId, options) => invoke('quarantine:restore', entryId, options),
    allow: (entryId, options) => invoke('quarantine:allow', entryId, options),
    restoreMany: (entryIds, options) => invoke('quarantine:restoreMany', entryIds, options),
    allowMany: (entryIds, options) => invoke('quarantine:allowMany', entryIds, options),
    deleteMany: (entryIds) => invoke('quarantine:deleteMany', entryIds),
    allowRecord: (recordId) => invoke('quarantine:allowRecord', recordId),
    allowed: () => invoke('quarantine:allowed'),
    revokeAllowed: (sha256) => invoke('quarantine:revokeAllowed', sha256),
    allowedNames: () => invoke('quarantine:allowedNames'),
    nameAllowPreview: (name) => invoke('quarantine:nameAllowPreview', name),
    allowName: (name) => invoke('quarantine:allowName', name),
    revokeAllowedName: (name) => invoke('quarantine:revokeAllowedName', name),
  },
  history: {
    clear: () => invoke('history:clear'),
    export: (format, query) => invoke('history:export', format, query),
  },
  files: {
    pick: (kind) => invoke('files:pick', kind),
    pickSaveLocation: (defaultName) => invoke('files:pickSaveLocation', defaultName),
    // File.path no longer exists; webUtils is the supported way (the File never leaves this process).
    pathFor: (file) => webUtils.getPathForFile(file as unknown as File),
    reveal: (path) => invoke('files:reveal', path),
    copyText: (text) => invoke('files:copyText', text),
  },
  settings: {
    get: () => invoke('settings:get'),
    update: (patch) => invoke('settings:update', patch),
    keyStatus: () => invoke('settings:keyStatus'),
    setApiKey: (key) => invoke('settings:setApiKey', key),
    clearApiKey: () => invoke('settings:clearApiKey'),
    testConnection: () => invoke('settings:testConnection'),
    systemLanguage: () => invoke('settings:systemLanguage'),
    startupWarnings: () => invoke('settings:startupWarnings'),
  },
  watch: {
    list: () => invoke('watch:list'),
    add: (folder) => invoke('watch:add', folder),
    update: (id, patch) => invoke('watch:update', id, patch),
    remove: (id) => invoke('watch:remove', id),
    setAllPaused: (paused) => invoke('watch:setAllPaused', paused),
    onChange: (listener) => subscribe(EVENTS.watchChange, (payload) => safely(listener, payload as WatchedFolderStatus[])),
  },
  protection: {
    status: () => invoke('protection:status'),
    refresh: () => invoke('protection:refresh'),
    updateSignatures: () => invoke('protection:updateSignatures'),
    onChange: (listener) => subscribe(EVENTS.protectionChange, (payload) => safely(listener, payload as ProtectionView)),
  },
  scanJobs: {
    start: (request) => invoke('scanJobs:start', request),
    pause: (id) => invoke('scanJobs:pause', id),
    resume: (id) => invoke('scanJobs:resume', id),
    cancel: (id) => invoke('scanJobs:cancel', id),
    list: (options) => invoke('scanJobs:list', options),
    get: (id) => invoke('scanJobs:get', id),
    onEvent: (listener) => subscribe(EVENTS.jobUpdate, (payload) => safely(listener, payload as JobUpdate)),
  },
  fileManagerMenus: {
    status: () => invoke('fileManagerMenus:status'),
    add: (language) => invoke('fileManagerMenus:add', language),
    remove: () => invoke('fileManagerMenus:remove'),
  },
  savedScans: {
    list: () => invoke('savedScans:list'),
    save: (scan) => invoke('savedScans:save', scan),
    remove: (name) => invoke('savedScans:remove', name),
    run: (name) => invoke('savedScans:run', name),
    export: () => invoke('savedScans:export'),
    import: () => invoke('savedScans:import'),
  },
  virusTotal: {
    lookup: (sha256) => invoke('virusTotal:lookup', sha256),
    keyStatus: () => invoke('virusTotal:keyStatus'),
    setKey: (key) => invoke('virusTotal:setKey', key),
    clearKey: () => invoke('virusTotal:clearKey'),
  },
  overview: {
    get: (request) => invoke('overview:get', request),
  },
  feeds: {
    list: () => invoke('feeds:list'),
    add: (input) => invoke('feeds:add', input),
    setEnabled: (id, enabled) => invoke('feeds:setEnabled', id, enabled),
    remove: (id) => invoke('feeds:remove', id),
    update: () => invoke('feeds:update'),
  },
  rules: {
    list: () => invoke('rules:list'),
    import: (paths) => invoke('rules:import', paths),
    remove: (name) => invoke('rules:remove', name),
  },
  app: {
    onShowScan: (listener) =>
      subscribe(EVENTS.showScan, (payload) => {
        if (typeof payload === 'string') safely(listener, payload);
      }),
  },
};

contextBridge.exposeInMainWorld('verdict', api);

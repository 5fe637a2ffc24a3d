// The test bridge's browser half: `window.verdict` (the whole VerdictApi) on top
// of fetch and EventSource, talking to ./bridge-server.ts on the page's own
// origin (so the production CSP's `connect-src 'self'` holds, no bypass needed).
// Injected with page.addInitScript(installTestBridge, config): the function is
// serialized, so it must not use anything from outside its own body.
import type { DroppedFile, JobUpdate, ProtectionView, Unsubscribe, VerdictApi, WatchedFolderStatus } from '../../../shared/bridge/api.ts';
import type { Result } from '../../../shared/result.ts';
import type { ScanEvent } from '../../../shared/scans/record.ts';

export interface BrowserBridgeConfig {
  /** Path prefix of the bridge on the page's origin, e.g. `/__bridge`. */
  prefix: string;
  /** files.pathFor: file name → the path a dropped File stands for (a browser File has none). */
  paths: Record<string, string>;
}

/** The few browser globals used here (this file is typechecked without the DOM lib). */
interface BrowserEventSource {
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
}
interface BrowserGlobals {
  fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ json(): Promise<unknown> }>;
  EventSource: new (url: string) => BrowserEventSource;
  verdict?: VerdictApi;
  __verdictTestBridge?: { setPath(name: string, path: string): void };
}

export function installTestBridge(config: BrowserBridgeConfig): void {
  const page = globalThis as unknown as BrowserGlobals;
  const paths = { ...config.paths };

  const invoke = async <T>(ns: string, method: string, ...args: unknown[]): Promise<Result<T>> => {
    // Like the preload: trailing undefined (omitted optional) arguments are not sent.
    while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
    try {
      const response = await page.fetch(`${config.prefix}/invoke/${ns}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return (await response.json()) as Result<T>;
    } catch (error) {
      return { ok: false, error: { code: 'bridge_unreachable', message: String(error) } };
    }
  };

  // One event stream for all subscriptions, opened on the first one.
  const listeners: Record<string, Set<(payload: unknown) => void>> = { scan: new Set(), watch: new Set(), showScan: new Set(), protection: new Set(), job: new Set() };
  let source: BrowserEventSource | null = null;
  const subscribe = (type: string, listener: (payload: unknown) => void): Unsubscribe => {
    if (!source) {
      source = new page.EventSource(`${config.prefix}/events`);
      for (const name of Object.keys(listeners)) {
        source.addEventListener(name, (event) => {
          const payload = JSON.parse(event.data) as unknown;
          for (const deliver of listeners[name] ?? []) deliver(payload);
        });
      }
    }
    const set = listeners[type];
    if (!set) throw new Error(`unknown event type ${type}`);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

  const api: VerdictApi = {
    scans: {
      submit: (paths, options) => invoke('scans', 'submit', paths, options),
      list: (query) => invoke('scans', 'list', query),
      get: (id) => invoke('scans', 'get', id),
      rescan: (id, options) => invoke('scans', 'rescan', id, options),
      basicOnlyCount: () => invoke('scans', 'basicOnlyCount'),
      rescanBasicOnly: () => invoke('scans', 'rescanBasicOnly'),
      scanWithBasicChecks: (ids) => invoke('scans', 'scanWithBasicChecks', ids),
      digests: (id) => invoke('scans', 'digests', id),
      counts: () => invoke('scans', 'counts'),
      allowUpload: (ids, origin) => invoke('scans', 'allowUpload', ids, origin),
      onEvent: (listener) => subscribe('scan', (payload) => listener(payload as ScanEvent)),
    },
    quarantine: {
      list: (options) => invoke('quarantine', 'list', options),
      forRecord: (recordId) => invoke('quarantine', 'forRecord', recordId),
      add: (recordIds) => invoke('quarantine', 'add', recordIds),
      restore: (entryId, options) => invoke('quarantine', 'restore', entryId, options),
      allow: (entryId, options) => invoke('quarantine', 'allow', entryId, options),
      restoreMany: (entryIds, options) => invoke('quarantine', 'restoreMany', entryIds, options),
      allowMany: (entryIds, options) => invoke('quarantine', 'allowMany', entryIds, options),
      deleteMany: (entryIds) => invoke('quarantine', 'deleteMany', entryIds),
      allowRecord: (recordId) => invoke('quarantine', 'allowRecord', recordId),
      allowed: () => invoke('quarantine', 'allowed'),
      revokeAllowed: (sha256) => invoke('quarantine', 'revokeAllowed', sha256),
      allowedNames: () => invoke('quarantine', 'allowedNames'),
      nameAllowPreview: (name) => invoke('quarantine', 'nameAllowPreview', name),
      allowName: (name) => invoke('quarantine', 'allowName', name),
      revokeAllowedName: (name) => invoke('quarantine', 'revokeAllowedName', name),
    },
    history: {
      clear: () => invoke('history', 'clear'),
      export: (format, query) => invoke('history', 'export', format, query),
    },
    files: {
      pick: (kind) => invoke('files', 'pick', kind),
      pickSaveLocation: (defaultName) => invoke('files', 'pickSaveLocation', defaultName),
      pathFor: (file: DroppedFile) => paths[file.name] ?? '',
      reveal: (path) => invoke('files', 'reveal', path),
      copyText: (text) => invoke('files', 'copyText', text),
    },
    settings: {
      get: () => invoke('settings', 'get'),
      update: (patch) => invoke('settings', 'update', patch),
      keyStatus: () => invoke('settings', 'keyStatus'),
      setApiKey: (key) => invoke('settings', 'setApiKey', key),
      clearApiKey: () => invoke('settings', 'clearApiKey'),
      testConnection: () => invoke('settings', 'testConnection'),
      systemLanguage: () => invoke('settings', 'systemLanguage'),
      startupWarnings: () => invoke('settings', 'startupWarnings'),
    },
    watch: {
      list: () => invoke('watch', 'list'),
      add: (folder) => invoke('watch', 'add', folder),
      update: (id, patch) => invoke('watch', 'update', id, patch),
      remove: (id) => invoke('watch', 'remove', id),
      setAllPaused: (paused) => invoke('watch', 'setAllPaused', paused),
      onChange: (listener) => subscribe('watch', (payload) => listener(payload as WatchedFolderStatus[])),
    },
    protection: {
      status: () => invoke('protection', 'status'),
      refresh: () => invoke('protection', 'refresh'),
      updateSignatures: () => invoke('protection', 'updateSignatures'),
      onChange: (listener) => subscribe('protection', (payload) => listener(payload as ProtectionView)),
    },
    scanJobs: {
      start: (request) => invoke('scanJobs', 'start', request),
      pause: (id) => invoke('scanJobs', 'pause', id),
      resume: (id) => invoke('scanJobs', 'resume', id),
      cancel: (id) => invoke('scanJobs', 'cancel', id),
      list: (options) => invoke('scanJobs', 'list', options),
      get: (id) => invoke('scanJobs', 'get', id),
      onEvent: (listener) => subscribe('job', (payload) => listener(payload as JobUpdate)),
    },
    fileManagerMenus: {
      status: () => invoke('fileManagerMenus', 'status'),
      add: (language) => invoke('fileManagerMenus', 'add', language),
      remove: () => invoke('fileManagerMenus', 'remove'),
    },
    savedScans: {
      list: () => invoke('savedScans', 'list'),
      save: (scan) => invoke('savedScans', 'save', scan),
      remove: (name) => invoke('savedScans', 'remove', name),
      run: (name) => invoke('savedScans', 'run', name),
      export: () => invoke('savedScans', 'export'),
      import: () => invoke('savedScans', 'import'),
    },
    virusTotal: {
      lookup: (sha256) => invoke('virusTotal', 'lookup', sha256),
      keyStatus: () => invoke('virusTotal', 'keyStatus'),
      setKey: (key) => invoke('virusTotal', 'setKey', key),
      clearKey: () => invoke('virusTotal', 'clearKey'),
    },
    overview: {
      get: (request) => invoke('overview', 'get', request),
    },
    feeds: {
      list: () => invoke('feeds', 'list'),
      add: (input) => invoke('feeds', 'add', input),
      setEnabled: (id, enabled) => invoke('feeds', 'setEnabled', id, enabled),
      remove: (id) => invoke('feeds', 'remove', id),
      update: () => invoke('feeds', 'update'),
    },
    rules: {
      list: () => invoke('rules', 'list'),
      import: (paths) => invoke('rules', 'import', paths),
      remove: (name) => invoke('rules', 'remove', name),
    },
    app: {
      onShowScan: (listener) => subscribe('showScan', (payload) => listener(payload as string)),
    },
  };

  page.verdict = Object.freeze(api);
  page.__verdictTestBridge = {
    setPath(name, path) {
      paths[name] = path;
    },
  };
}

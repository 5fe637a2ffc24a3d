// A Core for shell tests: a plain object implementing the Core interface that
// records calls and lets a test emit events. It stands in for electron/core,
// which another module owns; the shell only forwards to it.
import type { JobProgress, JobUpdate, ProtectionView, WatchedFolderStatus } from '../../../shared/bridge/api.ts';
import type { JobState } from '../../../shared/jobs/job.ts';
import type { QuarantineEntry } from '../../../shared/quarantine/entry.ts';
import { ok } from '../../../shared/result.ts';
import { queuedRecord, type ScanEvent, type ScanRecord } from '../../../shared/scans/record.ts';
import { defaultSettings, type Settings } from '../../../shared/settings/settings.ts';
import type { Core } from '../../../electron/core/core.ts';
import type { SchedulesView } from '../../../electron/jobs/schedule/scheduler.ts';

export interface TestCore extends Core {
  calls: Array<{ method: string; args: unknown[] }>;
  settingsValue: Settings;
  folders: WatchedFolderStatus[];
  emit(event: ScanEvent): void;
  emitWatch(folders: WatchedFolderStatus[]): void;
  /** The protection view status() answers; emitProtection sets it and tells the listeners. */
  protectionValue: ProtectionView;
  emitProtection(view: ProtectionView): void;
  /** The schedules view view() answers; emitSchedules sets it and tells the listeners. */
  schedulesValue: SchedulesView;
  emitSchedules(view: SchedulesView): void;
  /** Tells the scanJobs.onEvent listeners (the shell's notifications, the tray, the window). */
  emitJob(update: JobUpdate): void;
  listenerCount(): number;
}

export function createTestCore(): TestCore {
  const listeners = new Set<(event: ScanEvent) => void>();
  const watchListeners = new Set<(folders: WatchedFolderStatus[]) => void>();
  const protectionListeners = new Set<(view: ProtectionView) => void>();
  const scheduleListeners = new Set<(view: SchedulesView) => void>();
  const jobListeners = new Set<(update: JobUpdate) => void>();
  const calls: TestCore['calls'] = [];
  const record = (method: string, args: unknown[]) => calls.push({ method, args });
  const core: TestCore = {
    calls,
    settingsValue: defaultSettings(),
    folders: [],
    startupWarnings: [],
    emit: (event) => listeners.forEach((listener) => listener(event)),
    emitWatch: (folders) => watchListeners.forEach((listener) => listener(folders)),
    protectionValue: protectionView(),
    emitProtection(view) {
      core.protectionValue = view;
      protectionListeners.forEach((listener) => listener(view));
    },
    schedulesValue: { skipOnBattery: true, kinds: [], next: null },
    emitSchedules(view) {
      core.schedulesValue = view;
      scheduleListeners.forEach((listener) => listener(view));
    },
    schedules: {
      view: () => core.schedulesValue,
      onChange(listener) {
        scheduleListeners.add(listener);
        return () => scheduleListeners.delete(listener);
      },
    },
    emitJob: (update) => jobListeners.forEach((listener) => listener(update)),
    listenerCount: () => listeners.size,
    async submit(...args) {
      record('submit', args);
      return ok({ queued: args[0].length, skipped: 0, linksNotFollowed: 0, failed: 0, ids: args[0].map((_, index) => `id-${index}`) });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle() {},
    async close() {
      record('close', []);
    },
    scans: {
      async submit(...args) {
        record('scans.submit', args);
        return ok({ queued: args[0].length, skipped: 0, linksNotFollowed: 0, failed: 0 });
      },
      async list(...args) {
        record('scans.list', args);
        return ok({ items: [], total: 0 });
      },
      async get(...args) {
        record('scans.get', args);
        return ok(scanRecord({ id: args[0] }));
      },
      async rescan(...args) {
        record('scans.rescan', args);
        return ok({ queued: 1 });
      },
      async counts() {
        record('scans.counts', []);
        return ok({ queued: 0, uploading: 0, processing: 0 });
      },
      async basicOnlyCount() {
        record('scans.basicOnlyCount', []);
        return ok({ count: 0 });
      },
      async rescanBasicOnly() {
        record('scans.rescanBasicOnly', []);
        return ok({ queued: 0, missing: 0 });
      },
      async scanWithBasicChecks(...args) {
        record('scans.scanWithBasicChecks', args);
        return ok({ switched: args[0].length, queued: 0, skipped: 0 });
      },
      async allowUpload(...args) {
        record('scans.allowUpload', args);
        return ok({ released: args[0].length });
      },
      async digests(...args) {
        record('scans.digests', args);
        return ok({ md5: 'd41d8cd98f00b204e9800998ecf8427e', sha1: 'da39a3ee5e6b4b0d3255bfef95601890afd80709', sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' });
      },
      onEvent(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    quarantine: {
      async list(...args) {
        record('quarantine.list', args);
        return ok([]);
      },
      async forRecord(...args) {
        record('quarantine.forRecord', args);
        return ok(null);
      },
      async add(...args) {
        record('quarantine.add', args);
        return ok(args[0].map((id) => ({ id, ok: true as const, value: quarantineEntry({ recordId: id }) })));
      },
      async restore(...args) {
        record('quarantine.restore', args);
        return ok(quarantineEntry({ id: args[0], state: 'restored' }));
      },
      async allow(...args) {
        record('quarantine.allow', args);
        return ok(quarantineEntry({ id: args[0], state: 'allowed' }));
      },
      async restoreMany(...args) {
        record('quarantine.restoreMany', args);
        return ok(args[0].map((id) => ({ id, ok: true as const, value: quarantineEntry({ id, state: 'restored' }) })));
      },
      async allowMany(...args) {
        record('quarantine.allowMany', args);
        return ok(args[0].map((id) => ({ id, ok: true as const, value: quarantineEntry({ id, state: 'allowed' }) })));
      },
      async deleteMany(...args) {
        record('quarantine.deleteMany', args);
        return ok(args[0].map((id) => ({ id, ok: true as const, value: quarantineEntry({ id, state: 'deleted' }) })));
      },
      async allowRecord(...args) {
        record('quarantine.allowRecord', args);
        return ok({ sha256: 'a'.repeat(64), fileName: 'file.txt', allowedAt: '2025-01-01T00:00:00.000Z', entryId: null, recordId: args[0] });
      },
      async allowed() {
        record('quarantine.allowed', []);
        return ok([]);
      },
      async revokeAllowed(...args) {
        record('quarantine.revokeAllowed', args);
        return ok(null);
      },
      async allowedNames() {
        record('quarantine.allowedNames', []);
        return ok([]);
      },
      async nameAllowPreview(...args) {
        record('quarantine.nameAllowPreview', args);
        return ok({ files: 0, inQuarantine: 0, atLeast: false });
      },
      async allowName(...args) {
        record('quarantine.allowName', args);
        return ok({ names: [args[0]], changed: 0 });
      },
      async revokeAllowedName(...args) {
        record('quarantine.revokeAllowedName', args);
        return ok({ names: [], changed: 0 });
      },
    },
    history: {
      async clear() {
        record('history.clear', []);
        return ok({ removed: 0 });
      },
      async export(...args) {
        record('history.export', args);
        return ok({ rows: 3, path: args[0] });
      },
    },
    settings: {
      get: async () => ok(core.settingsValue),
      async update(...args) {
        record('settings.update', args);
        return ok(core.settingsValue);
      },
      keyStatus: async () => ok({ isSet: false, masked: null, keychainError: null }),
      async setApiKey(...args) {
        record('settings.setApiKey', args);
        return ok({ isSet: true, masked: '••••', keychainError: null });
      },
      clearApiKey: async () => ok({ isSet: false, masked: null, keychainError: null }),
      testConnection: async () => ok({ reachable: true, authorized: true, latencyMs: 1, message: 'ok', problem: null }),
      systemLanguage: async () => ok('en' as const),
      startupWarnings: async () => ok([...core.startupWarnings]),
    },
    watch: {
      list: async () => ok(core.folders),
      async add(...args) {
        record('watch.add', args);
        return ok(core.folders);
      },
      async update(...args) {
        record('watch.update', args);
        return ok(core.folders);
      },
      async remove(...args) {
        record('watch.remove', args);
        return ok(core.folders);
      },
      async setAllPaused(...args) {
        record('watch.setAllPaused', args);
        core.folders = core.folders.map((status) => ({ ...status, folder: { ...status.folder, paused: args[0] }, state: args[0] ? 'paused' : 'watching' }));
        return ok(core.folders);
      },
      onChange(listener) {
        watchListeners.add(listener);
        return () => watchListeners.delete(listener);
      },
    },
    protection: {
      status: async () => ok(core.protectionValue),
      async refresh() {
        record('protection.refresh', []);
        return ok(core.protectionValue);
      },
      async updateSignatures() {
        record('protection.updateSignatures', []);
        return ok({ code: 'current' as const, params: {}, at: '2025-01-01T00:00:00.000Z' });
      },
      onChange(listener) {
        protectionListeners.add(listener);
        return () => protectionListeners.delete(listener);
      },
    },
    scanJobs: {
      async start(request) {
        record('scanJobs.start', [request]);
        return ok(jobProgress({ kind: request.kind, roots: request.roots ?? ['/home/user'] }));
      },
      async pause(id) {
        record('scanJobs.pause', [id]);
        return ok(jobProgress({ id, status: 'paused' }));
      },
      async resume(id) {
        record('scanJobs.resume', [id]);
        return ok(jobProgress({ id }));
      },
      async cancel(id) {
        record('scanJobs.cancel', [id]);
        return ok(jobProgress({ id, status: 'cancelled' }));
      },
      async list(...args) {
        record('scanJobs.list', args);
        return ok([]);
      },
      async get(id) {
        return ok(jobProgress({ id }));
      },
      onEvent(listener) {
        jobListeners.add(listener);
        return () => jobListeners.delete(listener);
      },
    },
    savedScans: {
      list: async () => ok([]),
      async save(scan) {
        record('savedScans.save', [scan]);
        return ok([]);
      },
      remove: async () => ok([]),
      async run(name) {
        record('savedScans.run', [name]);
        return ok(jobProgress({ kind: 'custom' }));
      },
      async exportTo(path) {
        record('savedScans.exportTo', [path]);
        return ok({ count: 0 });
      },
      async importFrom(path) {
        record('savedScans.importFrom', [path]);
        return ok({ added: 0, replaced: 0 });
      },
    },
    virusTotal: {
      async lookup(sha256) {
        record('virusTotal.lookup', [sha256]);
        return ok({ kind: 'unknown' });
      },
      keyStatus: async () => ok({ isSet: false, masked: null, keychainError: null }),
      async setKey(key) {
        record('virusTotal.setKey', [key]);
        return ok({ isSet: true, masked: '••••••••', keychainError: null });
      },
      clearKey: async () => ok({ isSet: false, masked: null, keychainError: null }),
    },
    overview: {
      async get(request) {
        record('overview.get', [request]);
        return ok({ since: '2026-01-01T00:00:00.000Z', days: [], verdicts: [], topDetections: [], signatureUpdates: [], lastFullScan: null, nextScheduled: null });
      },
    },
    feeds: {
      list: async () => ok({ feeds: [], databaseDir: '/data/clamav-db', blocked: null }),
      async add(input) {
        record('feeds.add', [input]);
        return ok({ feeds: [], databaseDir: '/data/clamav-db', blocked: null });
      },
      async setEnabled(id, enabled) {
        record('feeds.setEnabled', [id, enabled]);
        return ok({ feeds: [], databaseDir: '/data/clamav-db', blocked: null });
      },
      remove: async () => ok({ feeds: [], databaseDir: '/data/clamav-db', blocked: null }),
      update: async () => ok({ feeds: [], databaseDir: '/data/clamav-db', blocked: null }),
    },
    rules: {
      list: async () => ok([]),
      async import(paths) {
        record('rules.import', [paths]);
        return ok({ accepted: [], refused: [], rules: [] });
      },
      remove: async () => ok([]),
    },
  };
  return core;
}

/** A job's progress: a running quick scan unless overridden. */
export function jobProgress(job: Partial<JobState> = {}, progress: Partial<Omit<JobProgress, 'job'>> = {}): JobProgress {
  return {
    job: {
      id: 1,
      kind: 'quick',
      roots: ['/home/user/Downloads'],
      excluded: [],
      origin: 'dialog',
      status: 'running',
      walkComplete: false,
      counts: { found: 0, bytes: 0, scanned: 0, threats: 0, couldNotScan: 0, skipped: 0 },
      startedAt: '2026-11-25T10:00:00.000Z',
      finishedAt: null,
      activeMs: 0,
      currentFolder: null,
      runningSince: null,
      ...job,
    },
    filesPerSecond: 0,
    etaSeconds: null,
    ...progress,
  };
}

/** A protection view: the built-in engine (limited) unless overridden. */
export function protectionView(overrides: Partial<ProtectionView> = {}): ProtectionView {
  return {
    status: {
      state: 'limited',
      reason: { code: 'clamav_not_found', params: { tried: 'clamd' } },
      action: 'install_clamav',
      engine: { name: 'builtin', source: 'builtin', where: 'in-process', version: null, signatures: null },
      streamLimit: null,
    },
    remote: null,
    databaseDir: null,
    update: { phase: 'idle', last: null },
    checkedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A complete ScanRecord with sensible defaults (a finished clean scan). */
export function scanRecord(overrides: Partial<ScanRecord> = {}): ScanRecord {
  return {
    ...queuedRecord({ id: 'scan-1', path: '/home/user/file.txt', fileName: 'file.txt', origin: 'drop', backend: 'local', externalReferenceId: 'ref-1', queuedAt: '2025-01-01T00:00:00.000Z' }),
    size: 12,
    mode: 'sync',
    serviceScanId: 'svc-1',
    status: 'completed',
    safe: true,
    submittedAt: '2025-01-01T00:00:00.000Z',
    completedAt: '2025-01-01T00:00:01.000Z',
    durationMs: 1000,
    ...overrides,
  };
}

/** A quarantine entry with sensible defaults (a file in quarantine). */
export function quarantineEntry(overrides: Partial<QuarantineEntry> = {}): QuarantineEntry {
  return {
    id: 'entry-1',
    originalPath: '/home/user/file.exe',
    fileName: 'file.exe',
    size: 68,
    mode: 0o644,
    sha256: 'a'.repeat(64),
    recordId: 'scan-1',
    state: 'quarantined',
    quarantinedAt: '2025-01-01T00:00:02.000Z',
    resolvedAt: null,
    restoredTo: null,
    ...overrides,
  };
}

export function folderStatus(id: string, paused = false): WatchedFolderStatus {
  return {
    folder: {
      id,
      path: `/home/user/${id}`,
      recursive: true,
      ignore: [],
      paused,
      scanExisting: false,
      threatAction: 'notify',
      exclusions: { paths: [], globs: [], extensions: [] },
      maxAutoScanSize: null,
      backend: 'default',
    },
    state: paused ? 'paused' : 'watching',
    error: null,
  };
}

// createCore(): opens the data directory (history, settings, install id),
// picks the backend, starts the scan pipeline with crash recovery and the
// folder watcher, and offers it all as the Core interface. Every public
// method returns a Result; nothing here throws at a caller after start.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  watchedFolderInputSchema,
  watchedFolderPatchSchema,
  type KeyStatus,
  type WatchedFolderStatus,
} from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { LINK_OUTSIDE, linkOutsideParamsSchema } from '../../shared/scans/exclusion.ts';
import { historyQuerySchema, modeChoiceSchema, type ScanEvent, type ScanOrigin, type ScanRecord } from '../../shared/scans/record.ts';
import { z } from 'zod';
import { consentOriginSchema, needsUploadConsent, type FolderBackend } from '../../shared/settings/protection.ts';
import { settingsPatchSchema, type Settings, type WatchedFolder } from '../../shared/settings/settings.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { createBackendManager, type BackendManager } from '../backend/backend.ts';
import { embeddedServiceStarter } from '../backend/local-backend.ts';
import { testConnection } from '../backend/test-connection.ts';
import type { ServiceTimeouts } from '../service-client/service-client.ts';
import { createExclusionMatcher, exclusionConfigFromSettings, type ExclusionMatcher } from '../exclusions/exclusion-matcher.ts';
import { findWatchedFolder } from '../exclusions/watched-folder.ts';
import { fingerprintFile } from '../fingerprint/fingerprint.ts';
import { openHistory } from '../history/history.ts';
import { exportHistory } from '../history/export-history.ts';
import { expandPaths } from '../intake/expand-paths.ts';
import { accountForBaseUrl, createKeychain, DEFAULT_KEYCHAIN_ACCOUNT, DEFAULT_KEYCHAIN_SERVICE } from '../keychain/keychain.ts';
import { createLogger, createSecretList, type Logger } from '../logging/logger.ts';
import { openQuarantine, type QuarantineOptions } from '../quarantine/quarantine.ts';
import { createScanEvents } from '../scans/events.ts';
import { createScanPipeline, type ScanPipeline } from '../scans/pipeline.ts';
import type { Fingerprinter, Intake } from '../scans/ports.ts';
import { loadInstallId, makeProbeReference } from '../scans/reference.ts';
import { openSettings, type SettingsStore } from '../settings/settings-store.ts';
import { createFolderWatcher, type FolderWatcher } from '../watch/folder-watcher.ts';
import type { Core, CoreOptions } from './core.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { startRetention } from './retention.ts';
import { createThreatActions } from './threat-actions.ts';
import { systemLanguage } from './system-language.ts';
import { openWatchState } from './watch-state.ts';
import { collectStartupWarnings } from './startup-warnings.ts';

export { DEFAULT_KEYCHAIN_SERVICE };

/** Knobs for tests and CLIs; the app uses the defaults. */
export interface CoreTuning {
  /** Watch settings.watchedFolders (default true; the `scan` CLI turns it off). */
  watch?: boolean;
  concurrency?: number;
  maxProcessing?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  budget?: { ratePerSecond: number; burst: number };
  poll?: { initialDelayMs?: number; maxDelayMs?: number };
  clientRetry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number; deadlineMs?: number };
  /** Client timeouts (tests shorten them to exercise the timeout path). */
  timeouts?: Partial<ServiceTimeouts>;
  /** Watch settle time (ms). */
  watchSettleMs?: number;
  /** How often history retention runs besides start and settings changes (default 6 h). */
  retentionIntervalMs?: number;
  /** Log to stderr instead of a file when no logFile is given (default: a file in the data dir). */
  logToStderr?: boolean;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Called at each named step of a quarantine operation (crash tests kill the process there). */
  onQuarantineStep?: QuarantineOptions['onStep'];
}

/** Core plus what tests and CLIs look at. */
export interface CoreInternals extends Core {
  readonly dataDir: string;
  /** The embedded service's URL while it is the backend (tests). */
  localServiceUrl(): string | null;
  backendStats(): ReturnType<BackendManager['stats']>;
  pipelineState(): ReturnType<ScanPipeline['state']>;
  /** Resolves when no quarantine move started by a verdict is still running (tests). */
  threatsSettled(): Promise<void>;
}

/** Files up to this size are read once (fingerprint) and uploaded from memory; at most `concurrency` are held at a time. */
const SINGLE_READ_MAX_BYTES = 1024 * 1024;

/** Manual scans ask before a file goes to a remote service; a watched folder and the command line do not. */
const ASKS_BEFORE_UPLOAD: ReadonlySet<ScanOrigin> = new Set(['drop', 'dialog', 'second-instance', 'rescan']);

export async function createCore(options: CoreOptions, tuning: CoreTuning = {}): Promise<CoreInternals> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(dataDir);
  const cleanups: Array<() => unknown> = [() => lock.release()];
  const runCleanups = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // Best effort while tearing down.
      }
    }
  };

  try {
    const secrets = options.secrets ?? createSecretList();
    const log: Logger = createLogger({
      file: options.logFile ?? (tuning.logToStderr ? undefined : join(dataDir, 'logs', 'core.log')),
      secrets,
      level: tuning.logLevel ?? 'info',
      base: { process: 'core' },
    });
    cleanups.push(() => log.flush());
    if (options.serviceOverride) secrets.add(options.serviceOverride.apiKey);

    const settings = await openSettings(dataDir);
    if (settings.warning) log.warn({ warning: settings.warning }, 'settings');
    // NORMAL, not FULL: in WAL mode a process crash loses nothing and nothing is ever corrupted;
    // only a power cut can drop the last commits. FULL costs an fsync (~7 ms here) per write on the
    // main thread, several per file (see notes/pipeline.md).
    const history = openHistory(dataDir, { synchronous: 'NORMAL' });
    cleanups.push(() => history.close());
    if (history.warning) log.warn({ warning: history.warning }, 'history');
    const installId = await loadInstallId(dataDir);

    // Opened and recovered before anything scans: a move a crash interrupted is ended first.
    const quarantine = await openQuarantine(dataDir, { onStep: tuning.onQuarantineStep });
    cleanups.push(() => quarantine.close());
    if (quarantine.warning) log.warn({ warning: quarantine.warning }, 'quarantine');
    const recovered = await quarantine.recover();
    if (recovered.problems.length > 0 || recovered.lost.length > 0 || recovered.adopted.length > 0 || recovered.strays.length > 0) {
      log.warn({ problems: recovered.problems.length, lost: recovered.lost.length, adopted: recovered.adopted.length, strays: recovered.strays.length }, 'quarantine recovery');
    }

    // keytar loads on first use: a missing keychain shows up as a Result error, never at start.
    const keychain = createKeychain({ service: options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE });
    /** Each remote service has its own key, under its origin; with no remote service set up, the default account. */
    const keyAccount = () => {
      const remoteUrl = remoteServiceUrl(settings.get());
      return remoteUrl ? accountForBaseUrl(remoteUrl) : DEFAULT_KEYCHAIN_ACCOUNT;
    };
    let keychainError: string | null = null;

    const language = (): Language => {
      const chosen = settings.get().language;
      return chosen === 'system' ? systemLanguage() : chosen;
    };

    const events = createScanEvents({
      counts: () => history.counts(),
      onListenerError: (error) => log.warn({ err: error }, 'a scan event listener failed'),
    });
    cleanups.push(() => events.close());

    const threats = createThreatActions({ history, quarantine, settings: () => settings.get(), events, log });
    // Runs after the pipeline has stopped (cleanups run in reverse) and before the quarantine closes.
    cleanups.push(() => threats.settle());

    // Rebuilt when the settings change (rules are compiled once, not per file).
    let matcher: ExclusionMatcher | null = null;
    const exclusions = (): ExclusionMatcher => {
      if (matcher) return matcher;
      matcher = createExclusionMatcher(exclusionConfigFromSettings(settings.get()));
      if (matcher.invalid.length > 0) log.warn({ invalid: matcher.invalid.map((rule) => `${rule.kind}: ${rule.message}`) }, 'exclusion rules that never match');
      return matcher;
    };
    // A service named by the caller (the CLI's --service, tests) is the caller's consent.
    const mayUpload = (record: ScanRecord, serviceLabel: string): boolean =>
      serviceLabel === 'local' || options.serviceOverride !== undefined || !ASKS_BEFORE_UPLOAD.has(record.origin) || !needsUploadConsent(settings.get(), serviceLabel);

    let pipeline: ScanPipeline | null = null;
    const pipelineLog = {
      info: (message: string, fields?: Record<string, unknown>) => log.info(fields ?? {}, message),
      warn: (message: string, fields?: Record<string, unknown>) => log.warn(fields ?? {}, message),
      error: (message: string, fields?: Record<string, unknown>) => log.error(fields ?? {}, message),
    };

    const backend = createBackendManager({
      dataDir,
      backend: () => settings.get().backend,
      remoteBaseUrl: () => settings.get().remoteBaseUrl,
      extraTargets: () => new Set(settings.get().watchedFolders.map((folder) => folder.backend).filter((target) => target !== 'default')),
      language,
      keys: {
        async getKey() {
          const key = await keychain.getKey(keyAccount());
          keychainError = key.ok ? null : key.error.message;
          return key.ok ? key.value : null;
        },
      },
      keychainError: () => keychainError,
      override: options.serviceOverride,
      // The service's warnings and errors cross its thread as plain messages and are scrubbed by this logger.
      startLocal: embeddedServiceStarter({ ...options.localService, logger: log.child({ component: 'local-service' }) }),
      onSecret: (secret) => secrets.add(secret),
      budget: tuning.budget,
      retry: tuning.clientRetry,
      timeouts: tuning.timeouts,
      poll: tuning.poll,
      log: pipelineLog,
    });
    cleanups.push(() => backend.close());
    await backend.refresh();

    const fingerprint: Fingerprinter = async (path, signal) => {
      // A small file's bytes are kept and uploaded as hashed: one read per file instead of two.
      return fingerprintFile(path, { signal, keepContentUpTo: SINGLE_READ_MAX_BYTES });
    };
    const intake: Intake = (paths, intakeOptions) => expandPaths(paths, intakeOptions);

    const route = createRouter(() => settings.get().watchedFolders);
    pipeline = createScanPipeline({
      history,
      service: (record) => backend.availability(route(record.path)),
      backendLabel: (record) => backend.label(route(record.path)),
      fingerprint,
      intake,
      settings: () => settings.get(),
      installId,
      events,
      concurrency: tuning.concurrency,
      maxProcessing: tuning.maxProcessing,
      retryBaseMs: tuning.retryBaseMs,
      retryMaxMs: tuning.retryMaxMs,
      log: pipelineLog,
      exclusions,
      watchedFolders: () => settings.get().watchedFolders,
      threatResponse: (record) => threats.respond(record),
      onThreat: (record, request) => threats.onThreat(record, request),
      mayUpload,
    });
    const scans = pipeline;
    cleanups.push(() => scans.close());
    // After recovery, before retention: a record whose file a crash left restored, allowed, deleted or lost says so.
    threats.reconcile();
    threats.finishPending();
    scans.start();

    const retention = startRetention({ history, retention: () => settings.get().historyRetention, events, log, intervalMs: tuning.retentionIntervalMs });
    cleanups.push(() => retention.close());
    try {
      retention.apply();
    } catch (error) {
      log.warn({ err: error }, 'history retention failed');
    }

    // ---- watched folders -----------------------------------------------------------
    const watch = await setupWatching({ dataDir, settings, tuning, log, exclusions, submit: (paths) => submit(paths, { origin: 'watch' }) });
    cleanups.push(() => watch.close());

    settings.onChange((next, previous) => {
      if (routingOf(next) !== routingOf(previous)) {
        // Files waiting or in flight for a service that is no longer theirs move to the right one.
        void backend.refresh().then(() => scans.backendChanged());
      }
      if (next.mode !== previous.mode || next.reuseVerdictDays !== previous.reuseVerdictDays) scans.resume();
      const changed = (key: keyof Settings) => JSON.stringify(next[key]) !== JSON.stringify(previous[key]);
      if (changed('exclusions') || changed('maxAutoScanSize') || changed('watchedFolders')) matcher = null;
      if (changed('confirmRemoteUploads') || changed('remoteUploadConsentHosts')) scans.recheckHeld();
      if (changed('historyRetention')) {
        try {
          retention.apply();
        } catch (error) {
          log.warn({ err: error }, 'history retention failed');
        }
      }
      watch.apply(next, previous);
    });

    const startupWarnings = collectStartupWarnings({ settings, history, quarantine, recovery: recovered });

    // ---- the facade ------------------------------------------------------------------
    async function submit(paths: string[], submitOptions: { origin: ScanOrigin; mode?: Settings['mode']; force?: boolean; uploadConsent?: string; within?: string }) {
      try {
        if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string' || path.length === 0)) {
          return err('invalid_request', 'Expected a list of file or folder paths.');
        }
        if (submitOptions.mode !== undefined && !modeChoiceSchema.safeParse(submitOptions.mode).success) {
          return err('invalid_request', 'The mode must be auto, sync or async.');
        }
        if (submitOptions.uploadConsent !== undefined && !consentOriginSchema.safeParse(submitOptions.uploadConsent).success) {
          return err('invalid_request', 'The consent must name a service origin such as https://scan.example.com.');
        }
        return ok(await scans.submit(paths, submitOptions));
      } catch (error) {
        log.error({ err: error }, 'submit failed');
        return err('submit_failed', `The files could not be queued: ${(error as Error).message}`);
      }
    }

    const guard = async <T>(what: string, fn: () => Promise<Result<T>> | Result<T>): Promise<Result<T>> => {
      try {
        return await fn();
      } catch (error) {
        log.error({ err: error }, `${what} failed`);
        return err('internal_error', `${what} failed: ${(error as Error).message}`);
      }
    };

    const keyStatus = (): Promise<KeyStatus> => keychain.status(keyAccount());

    let closed = false;
    const core: CoreInternals = {
      dataDir,
      startupWarnings,
      submit,
      onEvent: (listener: (event: ScanEvent) => void) => events.subscribe(listener),
      idle: () => scans.idle(),
      async close() {
        if (closed) return;
        closed = true;
        await runCleanups();
      },
      localServiceUrl: () => backend.localUrl(),
      backendStats: () => backend.stats(),
      pipelineState: () => scans.state(),
      threatsSettled: async () => {
        // A verdict's move starts (synchronously) as its record completes, so after idle() every one is tracked.
        await scans.idle();
        await threats.idle();
      },
      scans: {
        submit: async (paths, submitOptions) => {
          const result = await submit(paths, { origin: 'dialog', mode: submitOptions?.mode, uploadConsent: submitOptions?.consent });
          return result.ok
            ? ok({ queued: result.value.queued, skipped: result.value.skipped, linksNotFollowed: result.value.linksNotFollowed, failed: result.value.failed })
            : result;
        },
        list: (query) =>
          guard('Listing scans', () => {
            const parsed = historyQuerySchema.safeParse(query);
            if (!parsed.success) return err('invalid_request', 'The history query is not valid.');
            return ok(history.query(parsed.data));
          }),
        get: (id) =>
          guard('Reading a scan', () => {
            const record = typeof id === 'string' ? history.get(id) : null;
            return record ? ok(record) : err('not_found', 'There is no scan with this id.');
          }),
        rescan: (id, rescanOptions) =>
          guard('Scanning again', async () => {
            const record = typeof id === 'string' ? history.get(id) : null;
            if (!record) return err('not_found', 'There is no scan with this id.');
            // A link skipped as leading out of its folder is checked against that folder again, not followed because it is named here.
            const link = record.error?.code === LINK_OUTSIDE ? linkOutsideParamsSchema.safeParse(record.error.params) : null;
            const within = link?.success ? { within: link.data.folder } : {};
            const result = await submit([record.path], { origin: 'rescan', force: true, uploadConsent: rescanOptions?.consent, ...within });
            return result.ok ? ok({ queued: result.value.queued }) : result;
          }),
        counts: () => guard('Counting scans', () => ok(history.counts())),
        allowUpload: (ids, origin) =>
          guard('Allowing the upload', () => {
            if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) return err('invalid_request', 'Expected a list of scan ids.');
            if (!consentOriginSchema.safeParse(origin).success) return err('invalid_request', 'Expected a service origin such as https://scan.example.com.');
            return ok({ released: scans.allowUpload(ids, origin) });
          }),
        onEvent: (listener) => events.subscribe(listener),
      },
      quarantine: {
        list: (listOptions) => guard('Listing the quarantine', () => threats.api.list(listOptions)),
        forRecord: (recordId) => guard('Reading the quarantine', () => threats.api.forRecord(recordId)),
        add: (recordIds) => guard('Moving files to quarantine', () => threats.api.add(recordIds)),
        restore: (entryId, restoreOptions) => guard('Restoring a file', () => threats.api.restore(entryId, restoreOptions)),
        allow: (entryId, restoreOptions) => guard('Allowing a file', () => threats.api.allow(entryId, restoreOptions)),
        restoreMany: (entryIds, bulkOptions) => guard('Restoring files', () => threats.api.restoreMany(entryIds, bulkOptions)),
        allowMany: (entryIds, bulkOptions) => guard('Allowing files', () => threats.api.allowMany(entryIds, bulkOptions)),
        deleteMany: (entryIds) => guard('Deleting files', () => threats.api.deleteMany(entryIds)),
        allowRecord: (recordId) => guard('Allowing a file', () => threats.api.allowRecord(recordId)),
        allowed: () => guard('Listing allowed files', () => threats.api.allowed()),
        revokeAllowed: (sha256) => guard('Removing an allowed file', () => threats.api.revokeAllowed(sha256)),
      },
      history: {
        clear: () => guard('Clearing the history', () => ok({ removed: retention.clear().length })),
        export: (target, exportOptions) => guard('Exporting the history', () => exportHistory(history, target, exportOptions)),
      },
      settings: {
        get: () => guard('Reading settings', () => ok(settings.get())),
        update: (patch) =>
          guard('Saving settings', async () => {
            const parsed = settingsPatchSchema.safeParse(patch);
            if (!parsed.success) return err('invalid_settings', `These settings are not valid: ${z.prettifyError(parsed.error)}`);
            const change = parsed.data;
            // The remote service chosen as the default is also the one folders set to `remote` use.
            if (change.backend?.kind === 'remote' && change.remoteBaseUrl === undefined) change.remoteBaseUrl = change.backend.baseUrl;
            return settings.update(change);
          }),
        keyStatus: () => guard('Reading the key status', async () => ok(await keyStatus())),
        setApiKey: (key) =>
          guard('Saving the API key', async () => {
            if (typeof key !== 'string') return err('invalid_api_key', 'The API key must be text.');
            secrets.add(key.trim());
            const stored = await keychain.setKey(key, keyAccount());
            if (!stored.ok) return stored;
            await backend.reloadKey();
            scans.resume();
            return stored;
          }),
        clearApiKey: () =>
          guard('Removing the API key', async () => {
            const deleted = await keychain.deleteKey(keyAccount());
            if (!deleted.ok) return deleted;
            await backend.reloadKey();
            return deleted;
          }),
        testConnection: () =>
          guard('Testing the connection', async () => {
            const client = backend.client();
            if (!client) {
              const availability = backend.availability();
              const problem = !availability.ok && availability.reason === 'awaiting_api_key' ? 'no_key' : 'unreachable';
              return ok({ reachable: false, authorized: false, latencyMs: null, message: availability.ok ? 'No service.' : availability.message, problem });
            }
            const report = await testConnection(client, makeProbeReference(installId));
            // The key works (again): a queue that waited for one goes on.
            if (report.authorized) scans.resume();
            return ok(report);
          }),
        systemLanguage: () => guard('Reading the system language', () => ok(systemLanguage())),
        startupWarnings: async () => ok(structuredClone([...startupWarnings])),
      },
      watch: {
        list: () => guard('Listing watched folders', () => ok(watch.statuses())),
        add: (input) =>
          guard('Adding a watched folder', async () => {
            const parsed = watchedFolderInputSchema.safeParse(input);
            if (!parsed.success) return err('invalid_request', 'The folder settings are not valid.');
            const path = resolve(parsed.data.path);
            const current = settings.get().watchedFolders;
            if (current.some((folder) => resolve(folder.path) === path)) return err('already_watched', 'This folder is watched already.');
            const folder: WatchedFolder = {
              id: randomUUID(),
              path,
              recursive: parsed.data.recursive ?? true,
              ignore: parsed.data.ignore ?? [],
              paused: parsed.data.paused ?? false,
              scanExisting: parsed.data.scanExisting ?? false,
              threatAction: parsed.data.threatAction,
              exclusions: parsed.data.exclusions,
              maxAutoScanSize: parsed.data.maxAutoScanSize,
              backend: parsed.data.backend,
            };
            const saved = await settings.update({ watchedFolders: [...current, folder] });
            return saved.ok ? ok(watch.statuses()) : saved;
          }),
        update: (id, patch) =>
          guard('Changing a watched folder', async () => {
            const parsed = watchedFolderPatchSchema.safeParse(patch);
            if (!parsed.success) return err('invalid_request', 'The folder settings are not valid.');
            const change = parsed.data;
            const current = settings.get().watchedFolders;
            if (!current.some((folder) => folder.id === id)) return err('not_found', 'There is no watched folder with this id.');
            const saved = await settings.update({ watchedFolders: current.map((folder) => (folder.id === id ? { ...folder, ...change } : folder)) });
            return saved.ok ? ok(watch.statuses()) : saved;
          }),
        remove: (id) =>
          guard('Removing a watched folder', async () => {
            const current = settings.get().watchedFolders;
            if (!current.some((folder) => folder.id === id)) return err('not_found', 'There is no watched folder with this id.');
            const saved = await settings.update({ watchedFolders: current.filter((folder) => folder.id !== id) });
            return saved.ok ? ok(watch.statuses()) : saved;
          }),
        setAllPaused: (paused) =>
          guard('Pausing watched folders', async () => {
            const saved = await settings.update({ watchingPaused: paused === true });
            return saved.ok ? ok(watch.statuses()) : saved;
          }),
        onChange: (listener) => watch.onChange(listener),
      },
    };
    return core;
  } catch (error) {
    await runCleanups();
    throw error;
  }
}

/** The remote service in use or set up: the default backend's, else the one kept for folders set to `remote`. */
function remoteServiceUrl(settings: Settings): string | null {
  return settings.backend.kind === 'remote' ? settings.backend.baseUrl : settings.remoteBaseUrl;
}

/** What decides where files go; when it changes, queued and in-flight files are routed again. */
function routingOf(settings: Settings): string {
  const folders = settings.watchedFolders.filter((folder) => folder.backend !== 'default').map((folder) => [folder.path, folder.backend]);
  return JSON.stringify([settings.backend, settings.remoteBaseUrl, folders]);
}

/**
 * The backend target of a file: its watched folder's choice (the deepest folder containing it), whatever
 * the origin, so a folder kept local stays local even for a file dropped on the window. The folders are
 * looked at only while one of them chose something other than the default.
 */
function createRouter(folders: () => readonly WatchedFolder[]): (path: string) => FolderBackend {
  let seen: readonly WatchedFolder[] | null = null;
  let anyRouted = false;
  return (path) => {
    const current = folders();
    if (current !== seen) {
      seen = current;
      anyRouted = current.some((folder) => folder.backend !== 'default');
    }
    if (!anyRouted) return 'default';
    return findWatchedFolder(path, current)?.backend ?? 'default';
  };
}

/**
 * The fields the caller sent, with their parsed values: zod fills the defaults of
 * absent fields even under .partial(), which would silently reset other settings.
 */
interface Watching {
  statuses(): WatchedFolderStatus[];
  apply(next: Settings, previous: Settings): void;
  onChange(listener: (statuses: WatchedFolderStatus[]) => void): () => void;
  close(): Promise<void>;
}

/** The folder watcher, fed from the settings; its complete files go to the pipeline in small batches. */
async function setupWatching(input: {
  dataDir: string;
  settings: SettingsStore;
  tuning: CoreTuning;
  log: Logger;
  /** Folders these exclude are not watched; one that turns up is submitted, to be listed once as skipped. */
  exclusions: () => ExclusionMatcher;
  submit: (paths: string[]) => Promise<Result<unknown>>;
}): Promise<Watching> {
  const { settings, tuning, log } = input;
  const listeners = new Set<(statuses: WatchedFolderStatus[]) => void>();
  if (tuning.watch === false) {
    const off = (): WatchedFolderStatus[] =>
      settings.get().watchedFolders.map((folder) => ({ folder, state: 'paused', error: 'Folders are not watched in this process (command-line scan).' }));
    return {
      statuses: off,
      apply: () => {
        for (const listener of listeners) listener(off());
      },
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: async () => {},
    };
  }

  // Files that settle together are queued together (one history transaction).
  let pending: string[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  const flush = () => {
    flushTimer = null;
    const paths = pending;
    pending = [];
    if (paths.length === 0) return;
    void input.submit(paths).then((result) => {
      if (!result.ok) log.warn({ error: result.error, count: paths.length }, 'could not queue watched files');
    });
  };

  const initial = settings.get();
  const state = await openWatchState(input.dataDir, (error) => log.warn({ err: error }, 'could not save the watch state'));
  const watcher: FolderWatcher = createFolderWatcher({
    folders: initial.watchedFolders,
    paused: initial.watchingPaused,
    // Files that landed while Verdict was not watching are scanned now (not a full rescan).
    ...(state.lastWatchedAt !== null ? { catchUpSince: state.lastWatchedAt } : {}),
    settleMs: tuning.watchSettleMs,
    onReady(file) {
      pending.push(file.path);
      if (pending.length >= 500) flush();
      else flushTimer ??= setTimeout(flush, 100);
    },
    exclusions: input.exclusions,
    onExcludedFolder(found) {
      pending.push(found.path);
      flushTimer ??= setTimeout(flush, 100);
    },
    log: (level, message) => log[level]({}, message),
  });
  state.setRunning(!initial.watchingPaused);

  return {
    statuses: () => watcher.statuses(),
    apply(next, previous) {
      if (JSON.stringify(next.watchedFolders) !== JSON.stringify(previous.watchedFolders)) watcher.setFolders(next.watchedFolders);
      if (JSON.stringify(next.exclusions) !== JSON.stringify(previous.exclusions)) watcher.exclusionsChanged();
      if (next.watchingPaused !== previous.watchingPaused) {
        if (next.watchingPaused) watcher.pauseAll();
        else watcher.resumeAll();
        state.setRunning(!next.watchingPaused);
      }
    },
    onChange: (listener) => watcher.onStatus(listener),
    async close() {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      pending = [];
      await watcher.close();
      await state.close();
    },
  };
}

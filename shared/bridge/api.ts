// The API the preload exposes as `window.verdict`, declared once: the preload
// implements it over IPC, the e2e test bridge implements it over HTTP, and the
// renderer's type for `window.verdict` is this interface.
import { RULES_CHANNELS, type RulesApi } from '../rules/rules-api.ts';
import { z } from 'zod';
import type { AllowedContent, BulkOutcome, QuarantineEntry } from '../quarantine/entry.ts';
import type { Result } from '../result.ts';
import {
  historyQuerySchema,
  modeChoiceSchema,
  type HistoryQuery,
  type Page,
  type QueueCounts,
  type ScanEvent,
  type ScanRecord,
  type SubmitSummary,
} from '../scans/record.ts';
import {
  detectionNameSchema,
  settingsPatchSchema,
  watchedFolderPatchSchema,
  watchedFolderSchema,
  type Settings,
  type SettingsPatch,
  type WatchedFolder,
  type WatchedFolderPatch,
} from '../settings/settings.ts';
import { consentOriginSchema } from '../settings/protection.ts';
import type { ProtectionView, SignatureUpdateOutcome } from '../engine/protection-view.ts';
import { jobIdSchema, jobStartSchema, type JobProgress, type JobStart, type JobUpdate } from '../jobs/job.ts';
import { FEEDS_CHANNELS, type FeedsApi } from '../feeds/feeds-api.ts';
import { VIRUSTOTAL_CHANNELS, type VirusTotalApi } from '../virustotal/lookup.ts';
import { OVERVIEW_CHANNELS, type OverviewApi } from '../overview/overview.ts';
import { SAVED_SCANS_CHANNELS, type SavedScansApi, type SavedScansCoreApi } from '../saved-scans/saved-scans-api.ts';

export { watchedFolderPatchSchema, type WatchedFolderPatch };
export type { ProtectionView, SignatureUpdateOutcome };
export type { JobProgress, JobStart, JobUpdate };

export type Unsubscribe = () => void;

/** The part of a DOM `File` the bridge needs (shared/ stays free of DOM types). */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
}

/** MD5 and SHA-1 computed on request from the file still on disk, with the sha256 that ties them to the scan. */
export interface FileDigestsOnRequest {
  md5: string;
  sha1: string;
  sha256: string;
}

export interface KeyStatus {
  /** Whether a key for the configured remote service is in the keychain. */
  isSet: boolean;
  /** e.g. `••••••••3f9a`; never the key itself. */
  masked: string | null;
  /** Set when the OS keychain cannot be used (e.g. no Secret Service). */
  keychainError: string | null;
}

/** What kept a connection test from succeeding: the UI's headline (the message has the detail). */
export type ConnectionProblem = 'no_key' | 'unauthorized' | 'unreachable' | 'not_a_service' | 'service_error';

export interface ConnectionReport {
  reachable: boolean;
  authorized: boolean;
  /** Round-trip time of the test request, in milliseconds. */
  latencyMs: number | null;
  message: string;
  /** null: connected and authorized. */
  problem: ConnectionProblem | null;
}

export type WatchState = 'watching' | 'paused' | 'starting' | 'missing' | 'error';

export interface WatchedFolderStatus {
  folder: WatchedFolder;
  state: WatchState;
  /** e.g. permission denied, inotify watch limit reached. */
  error: string | null;
}

export interface ScanSubmitOptions {
  mode?: z.infer<typeof modeChoiceSchema>;
  /**
   * The remote service origin (e.g. https://scan.example.com) the user agreed to
   * send these files to. Without it, a manual scan for a remote service that asks
   * first waits (pending `awaiting_upload_consent`) instead of being sent.
   */
  consent?: string;
}

/** What a bulk quarantine action did, one outcome per id in the order given. */
export type BulkOutcomes = Array<BulkOutcome<QuarantineEntry>>;

/**
 * Something found at start-up the user should hear about (a damaged or newer settings
 * file, a history or quarantine index replaced). The UI translates by `code`; the CLIs
 * and the log use `message`, the English sentence (also the UI's fallback).
 */
export const STARTUP_WARNING_CODES = [
  'settings_damaged',
  'settings_unreadable',
  'settings_future_version',
  'history_replaced',
  'quarantine_index_replaced',
  'quarantine_files_lost',
  'quarantine_recovery_failed',
] as const;
export type StartupWarningCode = (typeof STARTUP_WARNING_CODES)[number];
export interface StartupWarning {
  code: StartupWarningCode;
  message: string;
  /** The file concerned: the name a damaged file was set aside as, or the settings file that cannot be read. */
  file?: string;
  /** How many quarantine entries are concerned. */
  count?: number;
}

export const exportFormatSchema = z.enum(['csv', 'json']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;
export interface HistoryExportResult {
  rows: number;
  /** Where the file was written. */
  path: string;
}

/** The file managers that get a "Scan with Verdict" entry (Linux). */
export const FILE_MANAGERS = ['nautilus', 'nemo', 'dolphin', 'thunar'] as const;
export type FileManagerName = (typeof FILE_MANAGERS)[number];

export interface FileManagerMenusStatus {
  /**
   * Who provides "Scan with Verdict" in the file managers here: `user`, Settings adds it for
   * this user (the AppImage, a checkout); `package`, the .deb installed it for every user;
   * `none`, nothing to do here (Windows: the installer adds Explorer's entry; macOS: not yet).
   */
  provider: 'user' | 'package' | 'none';
  /** The files that hold an entry now (for `user`, the ones Settings wrote). */
  files: Array<{ manager: FileManagerName; path: string }>;
}

export interface VerdictApi {
  scans: {
    /** Queue files and folders; returns how many files were queued, how many an exclusion left out, and how many could not be scanned at all. */
    submit(paths: string[], options?: ScanSubmitOptions): Promise<Result<SubmitSummary>>;
    list(query: HistoryQuery): Promise<Result<Page<ScanRecord>>>;
    get(id: string): Promise<Result<ScanRecord>>;
    /** Submit the same file again, bypassing verdict reuse (and exclusions: "scan anyway"). */
    rescan(id: string, options?: { consent?: string }): Promise<Result<{ queued: number }>>;
    counts(): Promise<Result<QueueCounts>>;
    /** Files judged clean by basic checks only (the built-in engine) that ClamAV has not looked at since. */
    basicOnlyCount(): Promise<Result<{ count: number }>>;
    /**
     * "Scan again with ClamAV": sends those files again (those still on disk), bypassing verdict
     * reuse. `clamav_not_available` while ClamAV does not scan.
     */
    rescanBasicOnly(): Promise<Result<{ queued: number; missing: number }>>;
    /**
     * "Scan with basic checks only" for these scans, while ClamAV is gone: one still waiting
     * for it continues with the built-in engine (the same scan: `switched`); one failed with
     * `clamav_unavailable` is sent again (`queued`). Any other is left as it is (`skipped`).
     */
    scanWithBasicChecks(ids: string[]): Promise<Result<{ switched: number; queued: number; skipped: number }>>;
    /**
     * The user agreed to send these waiting scans (pending `awaiting_upload_consent`)
     * to `origin`; they go on if it is still the service in use.
     */
    allowUpload(ids: string[], origin: string): Promise<Result<{ released: number }>>;
    /**
     * "Compute MD5 and SHA-1" for a scanned file still on disk: `file_changed` when its content is not
     * what was scanned (another sha256 or size), `file_gone` when it is no longer there.
     */
    digests(id: string): Promise<Result<FileDigestsOnRequest>>;
    onEvent(listener: (event: ScanEvent) => void): Unsubscribe;
  };
  quarantine: {
    /** Entries still in quarantine (default) or every entry ever, newest first. */
    list(options?: { include?: 'active' | 'all' }): Promise<Result<QuarantineEntry[]>>;
    /** The newest quarantine entry of a scan, or null. */
    forRecord(recordId: string): Promise<Result<QuarantineEntry | null>>;
    /** Moves the files of unsafe scans to quarantine now (notify mode, or after a failed move). */
    add(recordIds: string[]): Promise<Result<Array<BulkOutcome<QuarantineEntry>>>>;
    /** Puts the file back (its sha256 must match; nothing may exist there), or to `to`. */
    restore(entryId: string, options?: { to?: string }): Promise<Result<QuarantineEntry>>;
    /** Restores and remembers the content as allowed: identical files are not flagged again. */
    allow(entryId: string, options?: { to?: string }): Promise<Result<QuarantineEntry>>;
    /** With `toFolder`, each file goes into that folder under its own name, or "name (2).ext" (and so on) when that is taken there; nothing is replaced. */
    restoreMany(entryIds: string[], options?: { toFolder?: string }): Promise<Result<BulkOutcomes>>;
    allowMany(entryIds: string[], options?: { toFolder?: string }): Promise<Result<BulkOutcomes>>;
    deleteMany(entryIds: string[]): Promise<Result<BulkOutcomes>>;
    /** Allows an unsafe scan's content without quarantining it (notify mode). */
    allowRecord(recordId: string): Promise<Result<AllowedContent>>;
    allowed(): Promise<Result<AllowedContent[]>>;
    revokeAllowed(sha256: string): Promise<Result<null>>;
    /** Detection names the user allows (issue 28 §1), in the order they were allowed. */
    allowedNames(): Promise<Result<string[]>>;
    /** What allowing this detection name would do to the history (the confirmation's count). */
    nameAllowPreview(name: string): Promise<Result<NameAllowPreview>>;
    /** Allows a detection name: later verdicts, and the history's threats whose every finding is then allowed. */
    allowName(name: string): Promise<Result<NameAllowOutcome>>;
    /** Takes a name off: the records it allowed read as threats again (not_found: it was not allowed). */
    revokeAllowedName(name: string): Promise<Result<NameAllowOutcome>>;
  };
  history: {
    /** Removes every finished scan except those whose file is in quarantine; never a pending one. */
    clear(): Promise<Result<{ removed: number }>>;
    /**
     * Writes the scans matching `query` to a file the user picks in the native save
     * dialog (the main process shows it; the renderer never names a path). null when cancelled.
     */
    export(format: ExportFormat, query?: HistoryQuery): Promise<Result<HistoryExportResult | null>>;
  };
  files: {
    /** Opens the native file dialog; resolves with the chosen paths. */
    pick(kind: 'files' | 'folder'): Promise<Result<string[]>>;
    /** The native save dialog (restoring a file elsewhere); null when cancelled. */
    pickSaveLocation(defaultName: string): Promise<Result<string | null>>;
    /** Path of a dropped File (webUtils.getPathForFile in the preload). */
    pathFor(file: DroppedFile): string;
    reveal(path: string): Promise<Result<null>>;
    copyText(text: string): Promise<Result<null>>;
  };
  settings: {
    get(): Promise<Result<Settings>>;
    update(patch: SettingsPatch): Promise<Result<Settings>>;
    keyStatus(): Promise<Result<KeyStatus>>;
    setApiKey(key: string): Promise<Result<KeyStatus>>;
    clearApiKey(): Promise<Result<KeyStatus>>;
    testConnection(): Promise<Result<ConnectionReport>>;
    /** The OS locale, for `language: system`. */
    systemLanguage(): Promise<Result<'en' | 'de'>>;
    /** What start-up found wrong with the settings, history or quarantine files (empty when all is well). */
    startupWarnings(): Promise<Result<StartupWarning[]>>;
  };
  watch: {
    list(): Promise<Result<WatchedFolderStatus[]>>;
    add(folder: WatchedFolderInput): Promise<Result<WatchedFolderStatus[]>>;
    update(id: string, patch: WatchedFolderPatch): Promise<Result<WatchedFolderStatus[]>>;
    remove(id: string): Promise<Result<WatchedFolderStatus[]>>;
    setAllPaused(paused: boolean): Promise<Result<WatchedFolderStatus[]>>;
    onChange(listener: (folders: WatchedFolderStatus[]) => void): Unsubscribe;
  };
  protection: {
    /** The protection state of the engine the default service uses, with its facts. */
    status(): Promise<Result<ProtectionView>>;
    /** Looks at the engine again now ("Look again"). */
    refresh(): Promise<Result<ProtectionView>>;
    /** Runs freshclam into Verdict's own database folder; progress and the outcome also arrive through onChange. */
    updateSignatures(): Promise<Result<SignatureUpdateOutcome>>;
    onChange(listener: (view: ProtectionView) => void): Unsubscribe;
  };
  /** Quick, full and custom scans of whole folders (a job is one row in the list). */
  scanJobs: {
    /** Starts a job (refused while one of the same kind, quick or full, is unfinished); its progress so far. */
    start(request: JobStart): Promise<Result<JobProgress>>;
    pause(id: number): Promise<Result<JobProgress>>;
    resume(id: number): Promise<Result<JobProgress>>;
    /** Stops the walk; the few files already queued still finish, then the job ends as cancelled. */
    cancel(id: number): Promise<Result<JobProgress>>;
    /** The newest jobs first, each with its progress. A job's files: scans.list({ job: id, … }). */
    list(options?: { limit?: number }): Promise<Result<JobProgress[]>>;
    get(id: number): Promise<Result<JobProgress>>;
    onEvent(listener: (update: JobUpdate) => void): Unsubscribe;
  };
  /** "Scan with Verdict" in the file manager, for this user (the main process writes the files). */
  fileManagerMenus: {
    status(): Promise<Result<FileManagerMenusStatus>>;
    /** Writes (or rewrites) the entries; a label kept in one language only is in `language`. */
    add(language: 'en' | 'de'): Promise<Result<FileManagerMenusStatus>>;
    /** Removes every entry Verdict wrote, leaving the user's own files and Thunar actions. */
    remove(): Promise<Result<FileManagerMenusStatus>>;
  };
  /** A second opinion by hash only (shared/virustotal/). */
  virusTotal: VirusTotalApi;
  /** Custom scans kept under a name (shared/saved-scans/). */
  savedScans: SavedScansApi;
  /** The protection overview's pictures (shared/overview/). */
  overview: OverviewApi;
  /** Extra signature feeds for Verdict's own clamd (shared/feeds/). */
  feeds: FeedsApi;
  /** The user's own YARA rules, checked by ClamAV's loader (shared/rules/). */
  rules: RulesApi;
  app: {
    /** Fired when the main process asks the UI to show a scan (notification click). */
    onShowScan(listener: (id: string) => void): Unsubscribe;
  };
}

/**
 * What the core (plain Node, electron/) offers the shell: the same namespaces as
 * the renderer sees, so an IPC channel `ns:method` forwards to `core[ns][method]`.
 * `files`, `fileManagerMenus` and `app` belong to the Electron shell. The exception is `history:export`:
 * the shell asks for the file with its save dialog, then calls `core.history.export(path, …)`.
 */
export type CoreApi = Pick<VerdictApi, 'scans' | 'settings' | 'watch' | 'quarantine' | 'protection' | 'scanJobs' | 'virusTotal' | 'feeds' | 'rules' | 'overview'> & {
  savedScans: SavedScansCoreApi;
  history: Omit<VerdictApi['history'], 'export'> & {
    /** Streams the matching scans to `path` (written atomically). */
    export(path: string, options: { format: ExportFormat; query?: HistoryQuery }): Promise<Result<HistoryExportResult>>;
  };
};

/** The history's threats a detection name covers (at most HISTORY_NAME_SCAN_LIMIT are looked at). */
export interface NameAllowPreview {
  /** Threats that would read "allowed (by detection name)": every finding of theirs would be allowed. */
  files: number;
  /** Threats with this name whose file is in quarantine: they stay there (restore them from the quarantine). */
  inQuarantine: number;
  /** More rows have this name than were looked at: the counts are at least these. */
  atLeast: boolean;
}

/** The allowed names after an allow or a removal, and how many history records changed. */
export interface NameAllowOutcome {
  names: string[];
  changed: number;
}

// ---- Input schemas: every IPC handler parses its arguments with these. ----

const id = z.string().min(1).max(128);
const ids = z.array(id).min(1).max(10_000);
const path = z.string().min(1).max(4096);
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/);
const restoreOptions = z.object({ to: path.optional() }).strict().optional();
const bulkRestoreOptions = z.object({ toFolder: path.optional() }).strict().optional();

export const watchedFolderInputSchema = watchedFolderSchema.omit({ id: true }).partial({
  recursive: true,
  ignore: true,
  paused: true,
  scanExisting: true,
});
export type WatchedFolderInput = z.input<typeof watchedFolderInputSchema>;

/** IPC channel → schema of its argument tuple. Events flow main → renderer on EVENT_CHANNELS. */
export const INVOKE_CHANNELS = {
  'scans:submit': z.tuple([
    z.array(path).min(1).max(100_000),
    z.object({ mode: modeChoiceSchema.optional(), consent: consentOriginSchema.optional() }).strict().optional(),
  ]),
  'scans:list': z.tuple([historyQuerySchema]),
  'scans:get': z.tuple([id]),
  'scans:rescan': z.tuple([id, z.object({ consent: consentOriginSchema.optional() }).strict().optional()]),
  'scans:counts': z.tuple([]),
  'scans:basicOnlyCount': z.tuple([]),
  'scans:rescanBasicOnly': z.tuple([]),
  'scans:scanWithBasicChecks': z.tuple([ids]),
  'scans:allowUpload': z.tuple([ids, consentOriginSchema]),
  'scans:digests': z.tuple([id]),
  'quarantine:list': z.tuple([z.object({ include: z.enum(['active', 'all']).optional() }).strict().optional()]),
  'quarantine:forRecord': z.tuple([id]),
  'quarantine:add': z.tuple([ids]),
  'quarantine:restore': z.tuple([id, restoreOptions]),
  'quarantine:allow': z.tuple([id, restoreOptions]),
  'quarantine:restoreMany': z.tuple([ids, bulkRestoreOptions]),
  'quarantine:allowMany': z.tuple([ids, bulkRestoreOptions]),
  'quarantine:deleteMany': z.tuple([ids]),
  'quarantine:allowRecord': z.tuple([id]),
  'quarantine:allowed': z.tuple([]),
  'quarantine:revokeAllowed': z.tuple([sha256]),
  'quarantine:allowedNames': z.tuple([]),
  'quarantine:nameAllowPreview': z.tuple([detectionNameSchema]),
  'quarantine:allowName': z.tuple([detectionNameSchema]),
  'quarantine:revokeAllowedName': z.tuple([detectionNameSchema]),
  'history:clear': z.tuple([]),
  'history:export': z.tuple([exportFormatSchema, historyQuerySchema.optional()]),
  'files:pick': z.tuple([z.enum(['files', 'folder'])]),
  'files:pickSaveLocation': z.tuple([z.string().max(1024)]),
  'files:reveal': z.tuple([path]),
  'files:copyText': z.tuple([z.string().max(4096)]),
  'settings:get': z.tuple([]),
  'settings:update': z.tuple([settingsPatchSchema]),
  'settings:keyStatus': z.tuple([]),
  'settings:setApiKey': z.tuple([z.string().max(4096)]),
  'settings:clearApiKey': z.tuple([]),
  'settings:testConnection': z.tuple([]),
  'settings:systemLanguage': z.tuple([]),
  'settings:startupWarnings': z.tuple([]),
  'watch:list': z.tuple([]),
  'watch:add': z.tuple([watchedFolderInputSchema]),
  'watch:update': z.tuple([id, watchedFolderPatchSchema]),
  'watch:remove': z.tuple([id]),
  'watch:setAllPaused': z.tuple([z.boolean()]),
  'protection:status': z.tuple([]),
  'protection:refresh': z.tuple([]),
  'protection:updateSignatures': z.tuple([]),
  'scanJobs:start': z.tuple([jobStartSchema]),
  'scanJobs:pause': z.tuple([jobIdSchema]),
  'scanJobs:resume': z.tuple([jobIdSchema]),
  'scanJobs:cancel': z.tuple([jobIdSchema]),
  'scanJobs:list': z.tuple([z.object({ limit: z.number().int().min(1).max(100).optional() }).strict().optional()]),
  'scanJobs:get': z.tuple([jobIdSchema]),
  'fileManagerMenus:status': z.tuple([]),
  'fileManagerMenus:add': z.tuple([z.enum(['en', 'de'])]),
  'fileManagerMenus:remove': z.tuple([]),
  ...FEEDS_CHANNELS,
  ...RULES_CHANNELS,
  ...VIRUSTOTAL_CHANNELS,
  ...OVERVIEW_CHANNELS,
  ...SAVED_SCANS_CHANNELS,
} as const;
export type InvokeChannel = keyof typeof INVOKE_CHANNELS;

export const EVENT_CHANNELS = {
  scanEvent: 'scans:event',
  watchChange: 'watch:change',
  showScan: 'app:showScan',
  protectionChange: 'protection:change',
  jobUpdate: 'scanJobs:event',
} as const;

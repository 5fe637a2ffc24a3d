// The API the preload exposes as `window.verdict`, declared once: the preload
// implements it over IPC, the e2e test bridge implements it over HTTP, and the
// renderer's type for `window.verdict` is this interface.
import { z } from 'zod';
import type { Result } from '../result.ts';
import {
  historyQuerySchema,
  modeChoiceSchema,
  type HistoryQuery,
  type Page,
  type QueueCounts,
  type ScanEvent,
  type ScanRecord,
} from '../scans/record.ts';
import {
  settingsPatchSchema,
  watchedFolderPatchSchema,
  watchedFolderSchema,
  type Settings,
  type SettingsPatch,
  type WatchedFolder,
  type WatchedFolderPatch,
} from '../settings/settings.ts';

export { watchedFolderPatchSchema, type WatchedFolderPatch };

export type Unsubscribe = () => void;

/** The part of a DOM `File` the bridge needs (shared/ stays free of DOM types). */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
}

export interface KeyStatus {
  /** Whether a key for the configured remote service is in the keychain. */
  isSet: boolean;
  /** e.g. `••••••••3f9a`; never the key itself. */
  masked: string | null;
  /** Set when the OS keychain cannot be used (e.g. no Secret Service). */
  keychainError: string | null;
}

export interface ConnectionReport {
  reachable: boolean;
  authorized: boolean;
  /** Round-trip time of the test request, in milliseconds. */
  latencyMs: number | null;
  message: string;
}

export type WatchState = 'watching' | 'paused' | 'starting' | 'missing' | 'error';

export interface WatchedFolderStatus {
  folder: WatchedFolder;
  state: WatchState;
  /** e.g. permission denied, inotify watch limit reached. */
  error: string | null;
}

export interface VerdictApi {
  scans: {
    /** Queue files and folders; returns how many files were queued. */
    submit(paths: string[], options?: { mode?: z.infer<typeof modeChoiceSchema> }): Promise<Result<{ queued: number }>>;
    list(query: HistoryQuery): Promise<Result<Page<ScanRecord>>>;
    get(id: string): Promise<Result<ScanRecord>>;
    /** Submit the same file again, bypassing verdict reuse. */
    rescan(id: string): Promise<Result<{ queued: number }>>;
    counts(): Promise<Result<QueueCounts>>;
    onEvent(listener: (event: ScanEvent) => void): Unsubscribe;
  };
  files: {
    /** Opens the native file dialog; resolves with the chosen paths. */
    pick(kind: 'files' | 'folder'): Promise<Result<string[]>>;
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
  };
  watch: {
    list(): Promise<Result<WatchedFolderStatus[]>>;
    add(folder: WatchedFolderInput): Promise<Result<WatchedFolderStatus[]>>;
    update(id: string, patch: WatchedFolderPatch): Promise<Result<WatchedFolderStatus[]>>;
    remove(id: string): Promise<Result<WatchedFolderStatus[]>>;
    setAllPaused(paused: boolean): Promise<Result<WatchedFolderStatus[]>>;
    onChange(listener: (folders: WatchedFolderStatus[]) => void): Unsubscribe;
  };
  app: {
    /** Fired when the main process asks the UI to show a scan (notification click). */
    onShowScan(listener: (id: string) => void): Unsubscribe;
  };
}

/**
 * What the core (plain Node, electron/) offers the shell: the same namespaces as
 * the renderer sees, so an IPC channel `ns:method` forwards to `core[ns][method]`.
 * `files` and `app` belong to the Electron shell.
 */
export type CoreApi = Pick<VerdictApi, 'scans' | 'settings' | 'watch'>;

// ---- Input schemas: every IPC handler parses its arguments with these. ----

const id = z.string().min(1).max(128);
const path = z.string().min(1).max(4096);

export const watchedFolderInputSchema = watchedFolderSchema.omit({ id: true }).partial({
  recursive: true,
  ignore: true,
  paused: true,
  scanExisting: true,
});
export type WatchedFolderInput = z.input<typeof watchedFolderInputSchema>;

/** IPC channel → schema of its argument tuple. Events flow main → renderer on EVENT_CHANNELS. */
export const INVOKE_CHANNELS = {
  'scans:submit': z.tuple([z.array(path).min(1).max(100_000), z.object({ mode: modeChoiceSchema.optional() }).strict().optional()]),
  'scans:list': z.tuple([historyQuerySchema]),
  'scans:get': z.tuple([id]),
  'scans:rescan': z.tuple([id]),
  'scans:counts': z.tuple([]),
  'files:pick': z.tuple([z.enum(['files', 'folder'])]),
  'files:reveal': z.tuple([path]),
  'files:copyText': z.tuple([z.string().max(4096)]),
  'settings:get': z.tuple([]),
  'settings:update': z.tuple([settingsPatchSchema]),
  'settings:keyStatus': z.tuple([]),
  'settings:setApiKey': z.tuple([z.string().max(4096)]),
  'settings:clearApiKey': z.tuple([]),
  'settings:testConnection': z.tuple([]),
  'settings:systemLanguage': z.tuple([]),
  'watch:list': z.tuple([]),
  'watch:add': z.tuple([watchedFolderInputSchema]),
  'watch:update': z.tuple([id, watchedFolderPatchSchema]),
  'watch:remove': z.tuple([id]),
  'watch:setAllPaused': z.tuple([z.boolean()]),
} as const;
export type InvokeChannel = keyof typeof INVOKE_CHANNELS;

export const EVENT_CHANNELS = {
  scanEvent: 'scans:event',
  watchChange: 'watch:change',
  showScan: 'app:showScan',
} as const;

// The IPC boundary. Every invoke channel of the shared contract gets one handler
// that (1) drops messages not sent by our window's main frame at the app origin,
// (2) validates the arguments with the channel's zod schema, (3) forwards `ns:method`
// to core[ns][method] or to the shell's own handlers (files, file-manager menus), and (4) turns any exception
// into a Result with a code and a message. Events flow back batched.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { z } from 'zod';
import { EVENT_CHANNELS, INVOKE_CHANNELS, type CoreApi, type InvokeChannel, type VerdictApi } from '../../shared/bridge/api.ts';
import { shownOutsideItsJob } from '../../shared/jobs/job.ts';
import { err, type Result } from '../../shared/result.ts';
import type { HistoryQuery, ScanEvent } from '../../shared/scans/record.ts';
import type { Core } from '../core/core.ts';
import { NO_FILE_MANAGER_MENUS, type FileManagerMenuHandlers } from '../file-manager-menus/menu-handlers.ts';
import type { Logger } from '../logging/logger.ts';
import { createBatcher, type Timers } from './event-batcher.ts';
import type { FilesHandlers } from './files.ts';
import { exportHistoryToChosenFile } from './history-export.ts';
import { exportSavedScans, importSavedScans, type SavedScanFilePickers } from './saved-scan-files.ts';
import { isTrustedSender, senderInfo } from './ipc-sender.ts';

// Saved scans' export and import are shell routes (the dialogs), like history:export.
type Targets = CoreApi & { files: FilesHandlers; fileManagerMenus: FileManagerMenuHandlers; savedScans: Pick<VerdictApi['savedScans'], 'export' | 'import'> };
type MethodOf<C extends string> = C extends `${infer N}:${infer M}`
  ? N extends keyof Targets
    ? M extends keyof Targets[N]
      ? Targets[N][M]
      : never
    : never
  : never;
/** Compile-time: every channel of the contract names a method of the core or the files handlers. */
type Unrouted = { [C in InvokeChannel]: [MethodOf<C>] extends [never] ? C : never }[InvokeChannel];
const _everyChannelRouted: [Unrouted] extends [never] ? true : false = true;

export interface IpcOptions {
  core: CoreApi;
  files: FilesHandlers;
  /** "Scan with Verdict" in the file manager; without it the UI hears that there is nothing to add. */
  fileManagerMenus?: FileManagerMenuHandlers;
  /** The dialogs of saved scans' export and import; without them those two answer `not_available`. */
  savedScanFiles?: SavedScanFilePickers;
  /** Our window's web contents: the only one allowed to call; null while there is none. */
  trustedWebContents(): WebContents | null;
  /** Origins the UI may be loaded from (see app-origin.ts). */
  origins: readonly string[];
  log: Logger;
}

export const INVOKE_CHANNEL_NAMES = Object.keys(INVOKE_CHANNELS) as InvokeChannel[];

/** A short, value-free description of what did not parse (never echoes the input). */
export function describeIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length > 0 ? `argument ${issue.path.map(String).join('.')}` : 'arguments';
    return `${where}: ${issue.message}`;
  });
  return parts.join('; ');
}

function isResult(value: unknown): value is Result<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** Channels the shell answers with the core's help, instead of forwarding as they are. */
const SHELL_ROUTES: Partial<Record<InvokeChannel, (options: IpcOptions) => (...args: never[]) => unknown>> = {
  // The save dialog picks the file; the renderer never names a path to write to.
  'history:export': (options) => (format: 'csv' | 'json', query?: HistoryQuery) =>
    exportHistoryToChosenFile(options.core, options.files.pickExportLocation, format, query),
  'savedScans:export': (options) => () => (options.savedScanFiles ? exportSavedScans(options.core, options.savedScanFiles) : err('not_available', 'No file dialog here.')),
  'savedScans:import': (options) => () => (options.savedScanFiles ? importSavedScans(options.core, options.savedScanFiles) : err('not_available', 'No file dialog here.')),
};

function methodFor(options: IpcOptions, channel: InvokeChannel): (...args: unknown[]) => unknown {
  const shellRoute = SHELL_ROUTES[channel];
  if (shellRoute) return shellRoute(options) as (...args: unknown[]) => unknown;
  const [namespace, method] = channel.split(':') as [string, string];
  const shellTargets: Record<string, object> = { files: options.files, fileManagerMenus: options.fileManagerMenus ?? NO_FILE_MANAGER_MENUS };
  const target = (shellTargets[namespace] ?? options.core[namespace as keyof CoreApi]) as Record<string, unknown>;
  const fn = target[method];
  if (typeof fn !== 'function') throw new Error(`No handler for ${channel}`);
  return (...args) => (fn as (...a: unknown[]) => unknown).apply(target, args);
}

/** Handles one invoke; exported so the whole path is testable with a fake event. */
export async function handleInvoke(options: IpcOptions, channel: InvokeChannel, event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, args: unknown[]): Promise<Result<unknown>> {
  const { log } = options;
  let sender;
  try {
    sender = senderInfo(event);
  } catch {
    // senderFrame throws when the frame was disposed mid-call.
    sender = null;
  }
  const trusted = options.trustedWebContents();
  if (!sender || !isTrustedSender(sender, { webContentsId: trusted && !trusted.isDestroyed() ? trusted.id : null, origins: options.origins })) {
    log.warn({ channel, frameUrl: sender?.frameUrl ?? null, webContentsId: sender?.webContentsId ?? null }, 'IPC from an untrusted sender dropped');
    return err('forbidden', 'This request did not come from the Verdict window.');
  }
  const parsed = INVOKE_CHANNELS[channel].safeParse(args);
  if (!parsed.success) {
    log.warn({ channel, issues: describeIssues(parsed.error) }, 'IPC arguments rejected');
    return err('invalid_argument', describeIssues(parsed.error));
  }
  try {
    // Forward what was validated, not zod's output: the contract's methods take the
    // schemas' *input* types, and parsing a patch would fill in defaults for every
    // field the user did not touch (zod 4 keeps defaults under .partial()). IPC
    // arguments arrive structured-cloned, so they are plain data.
    const result = await methodFor(options, channel)(...args);
    if (isResult(result)) return result;
    log.error({ channel }, 'IPC handler returned something that is not a Result');
    return err('internal_error', 'Verdict could not complete this request. Details are in the log file.');
  } catch (error) {
    log.error({ err: error, channel }, 'IPC handler failed');
    return err('internal_error', 'Verdict could not complete this request. Details are in the log file.');
  }
}

/** Registers every channel; call before the window loads. Returns an unregister function. */
export function registerIpcHandlers(options: IpcOptions): () => void {
  for (const channel of INVOKE_CHANNEL_NAMES) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => handleInvoke(options, channel, event, args));
  }
  return () => {
    for (const channel of INVOKE_CHANNEL_NAMES) ipcMain.removeHandler(channel);
  };
}

/** Key for coalescing: the latest progress/record per scan and the latest counts win. */
export function scanEventKey(event: ScanEvent): string | null {
  switch (event.type) {
    case 'record':
      return `record:${event.record.id}`;
    case 'progress':
      return `progress:${event.progress.id}`;
    case 'counts':
      return 'counts';
    case 'removed':
      return null;
  }
}

export interface EventForwarding {
  /** Asks the UI to show one scan (notification or tray click). */
  showScan(id: string): void;
  dispose(): void;
}

export interface EventForwardingOptions {
  core: Pick<Core, 'onEvent' | 'watch'> & Partial<Pick<Core, 'protection' | 'scanJobs'>>;
  target(): WebContents | null;
  /** How long events are collected before one message goes out. */
  delayMs?: number;
  timers?: Timers;
}

/**
 * Core events → the window: scan events batched (an array per message), folder, protection
 * and job changes as they come. A scan job's own files stay inside its row (a full scan
 * would send every file of the home folder): only its threats go out as scan events.
 */
export function forwardEvents(options: EventForwardingOptions): EventForwarding {
  const send = (channel: string, payload: unknown) => {
    const contents = options.target();
    if (!contents || contents.isDestroyed()) return;
    if (contents.isLoading()) contents.once('did-finish-load', () => contents.send(channel, payload));
    else contents.send(channel, payload);
  };
  const batcher = createBatcher<ScanEvent>({
    flush: (batch) => send(EVENT_CHANNELS.scanEvent, batch),
    keyOf: scanEventKey,
    delayMs: options.delayMs ?? 50,
    ...(options.timers ? { timers: options.timers } : {}),
  });
  const stopEvents = options.core.onEvent((event) => {
    if (event.type !== 'record' || shownOutsideItsJob(event.record)) batcher.push(event);
  });
  const stopJobs = options.core.scanJobs?.onEvent((update) => send(EVENT_CHANNELS.jobUpdate, update));
  const stopWatch = options.core.watch.onChange((folders) => send(EVENT_CHANNELS.watchChange, folders));
  const stopProtection = options.core.protection?.onChange((view) => send(EVENT_CHANNELS.protectionChange, view));
  return {
    showScan: (id) => send(EVENT_CHANNELS.showScan, id),
    dispose() {
      stopEvents();
      stopWatch();
      stopProtection?.();
      stopJobs?.();
      batcher.dispose();
    },
  };
}

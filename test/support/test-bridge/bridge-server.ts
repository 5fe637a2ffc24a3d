// The test bridge's server half: exposes a CoreApi (the real core in the e2e
// tests) over HTTP the way the preload exposes it over IPC. Calls arrive as
// POST /__bridge/invoke/<ns>/<method> with a JSON array of arguments, parsed
// with the same shared schemas the IPC handlers use; events go out as
// Server-Sent Events on GET /__bridge/events. `files` (dialogs, reveal, copy)
// are the test's own handlers, since there is no OS shell here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { INVOKE_CHANNELS, type CoreApi, type ExportFormat, type InvokeChannel, type VerdictApi } from '../../../shared/bridge/api.ts';
import { shownOutsideItsJob } from '../../../shared/jobs/job.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { NO_FILE_MANAGER_MENUS } from '../../../electron/file-manager-menus/menu-handlers.ts';

export const BRIDGE_PREFIX = '/__bridge';

/** What the shell would do with the OS: the test decides. */
export interface TestFiles {
  pick(kind: 'files' | 'folder'): Promise<Result<string[]>>;
  /** Optional: a bridge without it answers not_implemented (the save dialog is not used). */
  pickSaveLocation?(defaultName: string): Promise<Result<string | null>>;
  /** The save dialog of `history:export` (the main process shows it in the app); null: cancelled. */
  pickExportLocation?(format: ExportFormat): Promise<Result<string | null>>;
  reveal(path: string): Promise<Result<null>>;
  copyText(text: string): Promise<Result<null>>;
  /** The files saved scans' export writes and import reads (the app's dialogs); null: cancelled. */
  savedScanFiles?: { exportTo(): Promise<string | null>; importFrom(): Promise<string | null> };
  /** "Scan with Verdict" in the file manager (the real handlers on a test home); without it: nothing provided. */
  fileManagerMenus?: VerdictApi['fileManagerMenus'];
}

export interface TestBridge {
  /** Serves bridge requests; returns false for any other URL. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** What the main process does on a notification click. */
  showScan(id: string): void;
  /** Resolves once a page has subscribed to the event stream `count` times in all. */
  subscribed(count?: number): Promise<void>;
  /** Every call that came through, in order (arguments after parsing). */
  readonly calls: ReadonlyArray<{ channel: InvokeChannel; args: unknown[] }>;
  /** Ends the open event streams (so the HTTP server can close). */
  close(): void;
}

type Handler = (...args: unknown[]) => Promise<Result<unknown>>;

export function createTestBridge(core: CoreApi, files: TestFiles): TestBridge {
  const calls: Array<{ channel: InvokeChannel; args: unknown[] }> = [];
  const streams = new Set<ServerResponse>();
  const showScanListeners = new Set<(id: string) => void>();
  let subscriptions = 0;
  const subscriptionWaiters: Array<{ count: number; resolve: () => void }> = [];

  // As the shell does (electron/shell/history-export.ts): ask for the file, then the core writes it.
  const exportHistory: VerdictApi['history']['export'] = async (format, query) => {
    if (!files.pickExportLocation) return err('not_implemented', 'history:export is not implemented');
    const picked = await files.pickExportLocation(format);
    if (!picked.ok || picked.value === null) return picked.ok ? ok(null) : picked;
    return core.history.export(picked.value, { format, ...(query ? { query } : {}) });
  };

  const namespaces: Record<string, object> = {
    scans: core.scans,
    settings: core.settings,
    watch: core.watch,
    quarantine: core.quarantine,
    protection: core.protection,
    scanJobs: core.scanJobs,
    virusTotal: core.virusTotal,
    overview: core.overview,
    // As the shell does (electron/shell/saved-scan-files.ts): ask for the file, then the core writes or reads it.
    savedScans: {
      ...core.savedScans,
      async export() {
        const path = files.savedScanFiles ? await files.savedScanFiles.exportTo() : null;
        return path === null ? ok(null) : core.savedScans.exportTo(path);
      },
      async import() {
        const path = files.savedScanFiles ? await files.savedScanFiles.importFrom() : null;
        return path === null ? ok(null) : core.savedScans.importFrom(path);
      },
    },
    feeds: core.feeds,
    rules: core.rules,
    history: { ...core.history, export: exportHistory },
    files,
    fileManagerMenus: files.fileManagerMenus ?? NO_FILE_MANAGER_MENUS,
  };

  const handlerFor = (channel: InvokeChannel): Handler | undefined => {
    const [ns, method] = channel.split(':') as [string, string];
    const target = namespaces[ns] as Record<string, unknown> | undefined;
    const fn = target?.[method];
    return typeof fn === 'function' ? (fn.bind(target) as Handler) : undefined;
  };

  const invoke = async (channel: InvokeChannel, rawArgs: unknown): Promise<Result<unknown>> => {
    const parsed = INVOKE_CHANNELS[channel].safeParse(rawArgs);
    if (!parsed.success) return err('invalid_argument', `invalid arguments for ${channel}: ${parsed.error.message}`);
    const args = parsed.data as unknown[];
    calls.push({ channel, args });
    const handler = handlerFor(channel);
    if (!handler) return err('not_implemented', `${channel} is not implemented`);
    try {
      return await handler(...args);
    } catch (error) {
      // Like the IPC layer: a code and a message, never a raw exception.
      return err('internal_error', error instanceof Error ? error.message : String(error));
    }
  };

  const readJson = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '[]');
  };

  const send = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    response.end(JSON.stringify(body));
  };

  const openEventStream = (request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const write = (event: string, data: unknown): void => {
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const showScan = (id: string): void => write('showScan', id);
    // As the shell forwards them (electron/shell/ipc.ts): a job's own files stay inside its row.
    const unsubscribeScans = core.scans.onEvent((event) => {
      if (event.type !== 'record' || shownOutsideItsJob(event.record)) write('scan', event);
    });
    const unsubscribeJobs = core.scanJobs.onEvent((update) => write('job', update));
    const unsubscribeWatch = core.watch.onChange((folders) => write('watch', folders));
    const unsubscribeProtection = core.protection.onChange((view) => write('protection', view));
    showScanListeners.add(showScan);
    streams.add(response);
    // A comment line flushes the headers so the page's EventSource opens now.
    response.write(': connected\n\n');
    const end = (): void => {
      unsubscribeScans();
      unsubscribeWatch();
      unsubscribeProtection();
      unsubscribeJobs();
      showScanListeners.delete(showScan);
      streams.delete(response);
    };
    request.on('close', end);
    subscriptions++;
    for (const waiter of subscriptionWaiters.splice(0)) {
      if (subscriptions >= waiter.count) waiter.resolve();
      else subscriptionWaiters.push(waiter);
    }
  };

  return {
    calls,
    handle(request, response) {
      const url = new URL(request.url ?? '/', 'http://bridge');
      if (!url.pathname.startsWith(`${BRIDGE_PREFIX}/`)) return false;
      const rest = url.pathname.slice(BRIDGE_PREFIX.length + 1);
      if (rest === 'events' && request.method === 'GET') {
        openEventStream(request, response);
        return true;
      }
      const match = /^invoke\/(\w+)\/(\w+)$/.exec(rest);
      const channel = match ? `${match[1]}:${match[2]}` : '';
      if (request.method !== 'POST' || !(channel in INVOKE_CHANNELS)) {
        send(response, 404, { code: 'not_found', message: `no bridge route ${request.method} ${url.pathname}` });
        return true;
      }
      readJson(request)
        .then((args) => invoke(channel as InvokeChannel, args))
        .then(
          (result) => send(response, 200, result),
          (error: unknown) => send(response, 400, err('invalid_request', String(error))),
        );
      return true;
    },
    showScan(id) {
      for (const listener of showScanListeners) listener(id);
    },
    subscribed(count = 1) {
      if (subscriptions >= count) return Promise.resolve();
      return new Promise((resolve) => subscriptionWaiters.push({ count, resolve }));
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}

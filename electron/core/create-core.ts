// createCore(): opens the data directory (history, settings, install id),
// picks the backend, starts the scan pipeline with crash recovery and the
// folder watcher, and offers it all as the Core interface. Every public
// method returns a Result; nothing here throws at a caller after start.
// Each capability is set up in its own setup-*.ts; this file only orders them.
import { rulesApi } from '../rules/rules-api.ts';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ScanEvent } from '../../shared/scans/record.ts';
import type { BackendManager } from '../backend/backend.ts';
import { DEFAULT_KEYCHAIN_SERVICE } from '../keychain/keychain.ts';
import type { Jobs } from '../jobs/jobs.ts';
import type { Scheduler } from '../jobs/schedule/scheduler.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import type { Core, CoreOptions } from './core.ts';
import { createGuard, createTeardown, openCoreContext, type CoreTuning } from './core-context.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { DataDiskFullError, isDiskFull } from './disk-full.ts';
import { scansApi, createSubmit } from './scans-api.ts';
import { reactToSettings } from './settings-reactions.ts';
import { settingsApi } from './settings-api.ts';
import { setupBackend, setupKeys } from './setup-backend.ts';
import { engineNowPort } from './engine-now.ts';
import { setupEngine } from './setup-engine.ts';
import { historyApi, setupHistory, setupRetention, setupScanEvents } from './setup-history.ts';
import { quarantineApi, setupQuarantine, setupThreats } from './setup-quarantine.ts';
import { jobsApi } from './jobs-api.ts';
import { setupJobs } from './setup-jobs.ts';
import { setupDrives } from './setup-drives.ts';
import { prepareRecheck } from './setup-recheck.ts';
import type { Recheck } from '../recheck/recheck.ts';
import type { Drives } from '../drives/drives.ts';
import type { QuarantineRecheck } from '../recheck/quarantine-recheck.ts';
import { withRecheckNotes } from '../recheck/quarantine-notes.ts';
import { setupScanning } from './setup-scanning.ts';
import { setupSchedules } from './setup-schedules.ts';
import { setupWatching } from './setup-watching.ts';
import { collectStartupWarnings } from './startup-warnings.ts';
import { watchApi } from './watch-api.ts';
import { setupVirusTotal } from './setup-virustotal.ts';
import { overviewApi } from './overview-api.ts';
import { setupSignatureUpdates } from './setup-signature-updates.ts';
import type { SavedScans } from '../saved-scans/saved-scans.ts';
import type { SavedScanSchedules } from '../saved-scans/saved-scan-schedules.ts';
import { setupSavedScans } from './setup-saved-scans.ts';
import { savedScansApi } from './saved-scans-api.ts';
import { feedsApi } from '../feeds/feeds-api.ts';

export { DEFAULT_KEYCHAIN_SERVICE };
export type { CoreTuning };

/** Core plus what tests and CLIs look at. */
export interface CoreInternals extends Core {
  readonly dataDir: string;
  /** The embedded service's URL while it is the backend (tests). */
  localServiceUrl(): string | null;
  backendStats(): ReturnType<BackendManager['stats']>;
  pipelineState(): ReturnType<ScanPipeline['state']>;
  /** Records the pipeline holds in memory (0 once idle: the soak run checks it). */
  trackedCount(): number;
  /** Resolves when no quarantine move started by a verdict is still running (tests). */
  threatsSettled(): Promise<void>;
  /** Quick, full and custom scan jobs: start, pause, resume, cancel, progress (the CLI; the shell's IPC comes with the UI). */
  readonly jobs: Jobs;
  /** The scan schedules, with settled() for tests. */
  readonly schedules: Scheduler;
  /** Recent files judged again after a signature update (electron/recheck/). */
  readonly recheck: Recheck & { idle(): Promise<void>; quarantine: QuarantineRecheck };
  /** Custom scans kept under a name (electron/saved-scans/). */
  readonly savedScanStore: SavedScans;
  /** The saved scans' schedules (null when schedules are off: the CLI), with settled() for tests. */
  readonly savedScanSchedules: SavedScanSchedules | null;
  /** Removable drives, with check() for tests (absent unless watchDrives). */
  readonly drives?: Drives;
}

export async function createCore(options: CoreOptions, tuning: CoreTuning = {}): Promise<CoreInternals> {
  const dataDir = resolve(options.dataDir);
  try {
    return await openCore(dataDir, options, tuning);
  } catch (error) {
    // Named, so the CLIs and the app's start-up dialog say which folder is full and what to do.
    throw isDiskFull(error, dataDir) ? new DataDiskFullError(dataDir, error) : error;
  }
}

async function openCore(dataDir: string, options: CoreOptions, tuning: CoreTuning): Promise<CoreInternals> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(dataDir);
  const teardown = createTeardown();
  teardown.add(() => lock.release());

  try {
    // The order matters: each step's teardown runs in reverse (the pipeline stops before the threat
    // actions settle, and they settle before the quarantine closes).
    const ctx = await openCoreContext(dataDir, options, tuning, teardown);
    const { history, installId } = await setupHistory(ctx);
    const { quarantine, recovered } = await setupQuarantine(ctx);
    const keys = setupKeys(ctx);
    const events = setupScanEvents(ctx, history);
    const threats = setupThreats(ctx, { history, quarantine, events });
    const engine = setupEngine(ctx);
    const backend = await setupBackend(ctx, keys, engine.onLocalService);
    const guard = createGuard(ctx.log, dataDir);
    const protection = engine.api(guard);
    const scanning = setupScanning(ctx, { history, installId, events, threats, backend, engineNow: engineNowPort(engine.current), engineWait: (label) => engine.waitReason(label) });
    const { scans } = scanning;
    engine.onViewChange(() => scans.engineWaitChanged());
    setupSignatureUpdates(ctx, history, engine);
    // After recovery, before retention: a record whose file a crash left restored, allowed, deleted or lost says so.
    threats.reconcile();
    threats.finishPending();
    // Files in line or in flight (not those a paused lane holds, which may wait long): the recheck gives way to others.
    const filesInFlight = () => {
      const state = scans.state();
      return state.ready + state.active;
    };
    const rechecking = prepareRecheck(ctx, { history, events, engine, quarantine, localClient: () => backend.client('local'), filesInFlight });
    const jobs = setupJobs(ctx, { history, scans, events, allowBasicOnly: (ids) => void engine.allowBasicOnly(ids), walks: rechecking.walks, beforeCompact: () => rechecking.idle() });
    scans.start();
    jobs.resumeUnfinished();
    // Retention at start runs before anything can await: a record recovery re-queues must not finish (and look old) first.
    const retention = setupRetention(ctx, history, events, jobs);
    const recheck = Object.assign(rechecking.start(jobs), { idle: () => rechecking.idle(), quarantine: rechecking.quarantine });
    const schedules = await setupSchedules(ctx, { jobs, history, uploadWaitsForConsent: () => scanning.scheduledUploadWaits() });
    const { savedScans, schedules: savedScanSchedules } = await setupSavedScans(ctx, { jobs, history, uploadWaitsForConsent: () => scanning.scheduledUploadWaits() });
    const submit = createSubmit(scans, ctx.log);
    const watch = await setupWatching(ctx, { exclusions: scanning.exclusions, submit: (paths) => submit(paths, { origin: 'watch' }) });
    const drives = setupDrives(ctx, jobs, options.watchDrives === true);
    ctx.settings.onChange(reactToSettings({ backend, scans, scanning, retention, watch }));

    const startupWarnings = collectStartupWarnings({ settings: ctx.settings, history, quarantine, recovery: recovered });
    let closed = false;
    return {
      dataDir,
      startupWarnings,
      submit,
      onEvent: (listener: (event: ScanEvent) => void) => events.subscribe(listener),
      idle: () => scans.idle(),
      jobs,
      schedules,
      recheck,
      savedScanStore: savedScans,
      savedScanSchedules,
      savedScanChanges: savedScans,
      ...(savedScanSchedules ? { savedScanNext: savedScanSchedules } : {}),
      ...(drives ? { drives } : {}),
      async close() {
        if (closed) return;
        closed = true;
        await teardown.run();
      },
      localServiceUrl: () => backend.localUrl(),
      backendStats: () => backend.stats(),
      pipelineState: () => scans.state(),
      trackedCount: () => scans.trackedCount(),
      threatsSettled: async () => {
        // A verdict's move starts (synchronously) as its record completes, so after idle() every one is tracked.
        await scans.idle();
        await threats.idle();
      },
      scans: scansApi({ guard, submit, scans, history, events, protection: protection.status, allowBasicOnly: (ids) => engine.allowBasicOnly(ids), withRecheckLink: (record) => recheck.withLink(record) }),
      quarantine: withRecheckNotes(quarantineApi(guard, threats), () => recheck.quarantine),
      history: historyApi(guard, history, retention.retention),
      settings: settingsApi(ctx, { guard, keys, backend, scans, installId, startupWarnings }),
      watch: watchApi(ctx, guard, watch),
      protection,
      scanJobs: jobsApi(guard, jobs),
      savedScans: savedScansApi(guard, savedScans, jobs),
      virusTotal: setupVirusTotal(ctx, guard),
      overview: overviewApi(guard, history, { schedules, savedSchedules: savedScanSchedules, savedScans }),
      feeds: feedsApi({ guard, dataDir, afterChange: () => protection.refresh() }),
      rules: rulesApi({ guard, dataDir, afterChange: () => protection.refresh() }),
    };
  } catch (error) {
    await teardown.run();
    throw error;
  }
}

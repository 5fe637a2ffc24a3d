// The core's public face: what the Electron shell, the CLI and the e2e test
// bridge use. Implemented by createCore() in ./create-core.ts. Plain Node.
import type { CoreApi, StartupWarning } from '../../shared/bridge/api.ts';
import type { ClamdAddress } from '../../shared/engine/clamd-address.ts';
import type { Result } from '../../shared/result.ts';
import type { ModeChoice, ScanEvent, ScanOrigin, SubmitSummary } from '../../shared/scans/record.ts';
import type { Scheduler } from '../jobs/schedule/scheduler.ts';
import type { PowerPort } from '../jobs/schedule/power.ts';
import type { Recheck } from '../recheck/recheck.ts';
import type { Drives } from '../drives/drives.ts';
import type { SecretList } from '../logging/logger.ts';
import type { SavedScan } from '../../shared/saved-scans/saved-scan.ts';
import type { SavedScanSchedules } from '../saved-scans/saved-scan-schedules.ts';

export interface CoreOptions {
  /** Where history.sqlite, settings.json, the local service's data and logs live. */
  dataDir: string;
  /** Keychain service name (tests use their own so they never touch the user's key). */
  keychainService?: string;
  /**
   * Overrides for CLI and tests: a remote service URL and key (e.g. from VERDICT_API_KEY),
   * instead of what the settings say.
   */
  serviceOverride?: { baseUrl: string; apiKey: string };
  /** Options passed to the embedded local service when it is the backend. */
  localService?: {
    engine?: 'auto' | 'clamd' | 'builtin';
    clamdSocket?: string;
    /** The clamd named for this run (`--clamd`): wins over the settings' choice. */
    clamd?: ClamdAddress;
    /** The signature folder for Verdict's own clamd (--clamav-db); default Verdict's own, else the system's. */
    clamavDb?: string;
    /** false: never start Verdict's own clamd (default: start it when no clamd answers and clamd and a database exist). */
    ownClamd?: boolean;
    scanDelayMs?: number;
    syncWindowMs?: number;
    /** 'keep': the embedded service keeps every scan; default: it deletes a scan once the history has recorded it. */
    retention?: 'until-recorded' | 'keep';
    /** How files reach the embedded engine: as messages to its thread (default), or over HTTP (tests of that path). */
    path?: 'engine' | 'http';
  };
  /** Where the core logs (default `<dataDir>/logs/core.log`). */
  logFile?: string;
  /** Secret values to scrub from logs; the core adds every key it learns (share it with the shell's logger). */
  secrets?: SecretList;
  /** On battery or not, and waking from sleep, for the scan schedules (the shell's powerMonitor; default: never on battery). */
  power?: PowerPort;
  /** Notice removable drives when they are mounted (the app; not the CLIs). */
  watchDrives?: boolean;
}

export interface Core extends CoreApi {
  /** Queue paths from any source (drop, dialog, CLI, watcher, second instance). */
  /**
   * `uploadConsent`: the remote service origin the user agreed to send these files to
   * (manual scans to a remote service wait for it otherwise). `skipped`: files left out by an exclusion.
   */
  submit(
    paths: string[],
    options: { origin: ScanOrigin; mode?: ModeChoice; force?: boolean; uploadConsent?: string; basicOnly?: boolean },
  ): Promise<Result<SubmitSummary & { ids: string[] }>>;
  /** Subscribe to every scan event (UI, tray, notifications, CLI). */
  onEvent(listener: (event: ScanEvent) => void): () => void;
  /**
   * What the user should hear about from start-up: a settings file set aside or left
   * read-only, a damaged history or quarantine index replaced, quarantined files lost.
   * A code each, and a plain English sentence (no secrets). Also `settings.startupWarnings()`.
   */
  readonly startupWarnings: readonly StartupWarning[];
  /** The scan schedules: the next run of each kind (the tray's "Next scan"), and their changes. */
  readonly schedules: Pick<Scheduler, 'view' | 'onChange'>;
  /** Recent files judged again after a signature update: a file judged clean before and detected now (electron/recheck/). */
  readonly recheck?: Pick<Recheck, 'onFinding'>;
  /** Removable drives (electron/drives/): offers to scan, and the drive jobs; absent unless watchDrives. */
  readonly drives?: Pick<Drives, 'onEvent' | 'scan' | 'notNow' | 'alwaysFor' | 'offers'>;
  /** Told the saved scans after each change (the tray's menu; electron/saved-scans/). */
  readonly savedScanChanges?: { onChange(listener: (scans: SavedScan[]) => void): () => void };
  /** The soonest run of a scheduled saved scan (the tray's "Next scan"), and its changes; absent when schedules are off (the CLI). */
  readonly savedScanNext?: Pick<SavedScanSchedules, 'next' | 'onNext'>;
  /** Resolves when every queued and in-flight scan has reached a terminal state (CLI, tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

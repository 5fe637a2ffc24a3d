// The files of Verdict's own clamd in the data directory, and the clamd.conf
// Verdict writes for it: a private Unix socket and no TCP, limits above the
// service's 100 MB, and the chosen signature folder.
import { join } from 'node:path';
import type { DetectionSettings } from '../../../shared/settings/detection.ts';
import { detectionConfigLines } from '../conf/detection-conf.ts';

export interface OwnClamdFiles {
  configPath: string;
  /** clamd's pid, written by Verdict at spawn (and by clamd): how the next start finds a leftover. */
  pidPath: string;
  /** One clamd per data directory: held by the Verdict process that runs it. */
  lockPath: string;
  logPath: string;
  tempDir: string;
}

export function ownClamdFiles(dataDir: string): OwnClamdFiles {
  return {
    configPath: join(dataDir, 'clamd.conf'),
    pidPath: join(dataDir, 'clamd.pid'),
    lockPath: join(dataDir, 'clamd.lock'),
    logPath: join(dataDir, 'clamd.log'),
    tempDir: join(dataDir, 'clamd-tmp'),
  };
}

/** Above the service's 100 MB upload limit, so clamd never refuses what the service accepted. */
export const OWN_CLAMD_LIMITS = { streamMaxLength: '120M', maxFileSize: '120M', maxScanSize: '400M' } as const;
const OWN_CLAMD_STREAM_MB = 120;

/** Limits clamd.conf may set instead of clamd's or Verdict's defaults (tests use small ones); values as clamd reads them, e.g. `1M`. */
export interface OwnClamdLimits {
  maxFileSize?: string;
  maxScanSize?: string;
  maxRecursion?: number;
  maxFiles?: number;
}

/**
 * What clamd reports instead of a silent OK for what it could not inspect (issue 27 §3): a file over
 * a limit, an encrypted archive or document. Its answer (`Heuristics.Limits.Exceeded.*`,
 * `Heuristics.Encrypted.*`) becomes the verdict "scanned in part" (shared/scans/coverage.ts).
 */
export const COVERAGE_ALERTS = ['AlertExceedsMax yes', 'AlertEncrypted yes', 'AlertEncryptedArchive yes', 'AlertEncryptedDoc yes'] as const;

/**
 * `detection`: the user's PUA and limit settings (issue 28 §2; absent: the desktop defaults);
 * `limits` (tests) replaces their sizes with clamd's own forms.
 */
export function clamdConfigText(input: { files: OwnClamdFiles; socketPath: string; databaseDir: string; limits?: OwnClamdLimits; detection?: DetectionSettings }): string {
  const { files } = input;
  // A file clamd may scan whole may also come as a stream (INSTREAM, when descriptors cannot be passed).
  const streamMb = Math.max(OWN_CLAMD_STREAM_MB, input.detection?.maxFileSizeMb ?? 0);
  const lines = [
    '# Written by Verdict for its own clamd; rewritten at every start.',
    'Foreground yes',
    `LocalSocket ${input.socketPath}`,
    'LocalSocketMode 600',
    'FixStaleSocket yes',
    // No TCPSocket/TCPAddr: nothing but this user reaches this clamd.
    `DatabaseDirectory ${input.databaseDir}`,
    `PidFile ${files.pidPath}`,
    `TemporaryDirectory ${files.tempDir}`,
    `LogFile ${files.logPath}`,
    'LogFileMaxSize 1M',
    'LogRotate yes',
    'LogTime yes',
    `StreamMaxLength ${streamMb}M`,
    ...detectionConfigLines(input.detection, input.limits),
    ...COVERAGE_ALERTS,
    // Verdict reloads after its own updates (RELOAD); clamd need not poll the folder.
    'SelfCheck 0',
    'ConcurrentDatabaseReload yes',
  ];
  return `${lines.join('\n')}\n`;
}

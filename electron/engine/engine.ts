// What the local service needs from a malware engine: scan one file that is
// already on disk and say what was found. An engine that cannot decide throws
// (or rejects) an EngineError; the service then fails the scan, never calls it safe.
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import { SCANNED_IN_PART_LABEL } from '../../shared/scans/coverage.ts';

export interface EngineFinding {
  /** Signature name as the engine reports it, e.g. `Eicar-Signature` or `Win.Test.Clam.UNOFFICIAL`. */
  name: string;
  /** The signature feed (its name) whose signature this is (electron/feeds/), when Verdict's own clamd found it with one. */
  feed?: string;
  /** The file of the user's own YARA rule that made it (electron/rules/), shown as `YARA: RULE (FILE)`. */
  ruleFile?: string;
}

export interface EngineVerdict {
  safe: boolean;
  /** Label for result.detailed, e.g. `clean`, `infected`, `clean (basic checks only)`. */
  detailed: string;
  findings: EngineFinding[];
  /**
   * Who made the verdict (ClamAV and its signatures, or the built-in engine). Both of
   * Verdict's engines set it; a verdict without one is stored with `engine: null`
   * and is never reused as safe (shared/engine/verdict-reuse.ts).
   */
  engine?: EngineIdentity;
  /**
   * The verdict is for the file the caller hashed (ScanOptions.hashed), unchanged from the caller's open until the
   * engine answered: the caller need not read it again. Absent: nothing is known about that.
   */
  sameAsHashed?: boolean;
}

/** A file as the caller opened it to hash it (its fstat, times in ms as Node gives them). */
export interface HashedIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Absent: the caller did not note it, and the engine cannot vouch for the file being the same. */
  ctimeMs?: number;
  /** Where the caller opened it: with scanBytes, an engine may scan the file there instead while it is still this one. */
  path?: string;
}

/** What the caller allows for one file. */
export interface ScanOptions {
  /**
   * The user chose "scan with basic checks only" for this file: when ClamAV is not
   * available it need not wait for it (the built-in engine decides). Engines that
   * do not wait for ClamAV ignore it.
   */
  basicOnly?: boolean;
  /**
   * Aborted when the user allows basic checks only while the file already waits for
   * ClamAV (the detail panel's "Scan with basic checks only"): the wait ends there.
   */
  basicOnlyAllowed?: AbortSignal;
  /** The file the caller hashed, for an engine that can tell whether it scanned that file unchanged (sameAsHashed). */
  hashed?: HashedIdentity;
}

export interface ScanEngine {
  /** `clamd` or `builtin`; reported in findings and logs. */
  readonly name: string;
  scan(filePath: string, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict>;
  /**
   * The same verdict for a whole file whose bytes are already in memory (the service
   * keeps small uploads there, so the engine need not read them back from disk).
   * Optional: without it the service scans the upload's file.
   */
  scanBytes?(content: Buffer, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict>;
  close?(): Promise<void>;
  /** Scans it takes at once to good effect now (a clamd session's commands in flight); absent: the caller decides. */
  readonly concurrency?: number;
}

/** The engine could not give a verdict (unreachable, timed out, size limit, bad reply). */
export class EngineError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
  }
}

/**
 * Codes an EngineError carries, so the service can word them (en/de) without
 * parsing messages. `engine_aborted` means the caller cancelled the scan;
 * `file_unreadable` means the file to scan could not be read from disk.
 */
export const ENGINE_ERROR_CODES = [
  'engine_unavailable',
  /** ClamAV, known to this installation, stayed away longer than a file may wait for it. */
  'clamav_unavailable',
  'engine_timeout',
  'engine_size_limit',
  'engine_error',
  'engine_aborted',
  'file_unreadable',
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

/** The result.detailed labels the engines produce; stable, so clients may match on them. */
export const DETAILED_LABELS = {
  clean: 'clean',
  infected: 'infected',
  /** The built-in engine found nothing, but it only recognises the EICAR test file. */
  basicChecksClean: 'clean (basic checks only; ClamAV not available)',
  /** clamd could inspect only part of the file (every finding a limit or encryption heuristic): shared/scans/coverage.ts. */
  scannedInPart: SCANNED_IN_PART_LABEL,
} as const;

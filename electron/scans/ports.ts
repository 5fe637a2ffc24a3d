// What the pipeline needs from its collaborators, stated narrowly so the
// pipeline reads on its own and create-core.ts does the wiring (history,
// service client + poller, fingerprint, intake, settings).
import type { ScanFailureParams } from '../../shared/scans/failure.ts';
import type { QueueCounts, RecordError, ScanRecord } from '../../shared/scans/record.ts';
import type { Scan } from '../../shared/service-contract/scan.ts';
import type { FileIdentity, History, ScanRecordPatch } from '../history/history.ts';
import type { SubmissionMode } from './mode.ts';

export interface HistoryPort {
  insertMany(records: readonly ScanRecord[], jobId?: number): void;
  update(id: string, patch: ScanRecordPatch): ScanRecord | null;
  /** A patch the pipeline built, to a record it holds (history.ts says more); 'soon' waits for the next commit. */
  apply(record: ScanRecord, patch: ScanRecordPatch, durability: 'now' | 'soon'): ScanRecord | null;
  /** Commits the writes that wait. */
  flush(): void;
  /** Resolves once the writes made so far are committed (one commit for all who ask in the same turn). */
  committed(): Promise<void>;
  /** Runs fn once the writes made so far are committed (at once when none wait; never if that commit fails). */
  afterCommit(fn: () => void): void;
  get(id: string): ScanRecord | null;
  findReusable(sha256: string, sinceIso: string, options?: { backend?: string }): ScanRecord | null;
  listPending(): ScanRecord[];
  counts(): QueueCounts;
  /** Unfinished scan jobs started with basic checks only: recovery sends their waiting rows so too. */
  readonly jobs?: { unfinishedBasicOnly(): number[]; addUnchanged?: History['jobs']['addUnchanged'] };
  /** Files judged clean, by device and inode (the unchanged-file skip); absent: nothing is skipped. */
  readonly unchanged?: History['unchanged'];
}

export interface UploadFile {
  path: string;
  /** Sent as attributes.file_name (the base name, never the path). */
  name: string;
  size: number;
  /**
   * The bytes fingerprinted, for a small file: sent as they are, so the file is read once and the upload is exactly
   * what was hashed. Given up with the call: the local engine moves them to its thread (detached here).
   */
  content?: Buffer;
  /** The file as it was opened to hash it (FileDigests.opened): the local engine tells by it that it scanned that very file. */
  hashed?: FileDigests['opened'];
}

/**
 * One File Scanning Service as the pipeline uses it. Errors are the client's
 * ServiceError (a `kind` to branch on); retries, 408 continuation and 409
 * adoption happen inside.
 */
export interface ServicePort {
  /** `local` or the remote service's origin; stored in each record. */
  readonly label: string;
  /** Resolves with the scan: terminal (sync, or after a 408 was followed up) or processing (async). */
  submit(
    file: UploadFile,
    options: {
      mode: SubmissionMode;
      externalReferenceId: string;
      signal: AbortSignal;
      onProgress: (sent: number, total: number) => void;
      /** The user chose "scan with basic checks only" for this file (it need not wait for ClamAV). */
      basicChecksOnly?: boolean;
      /**
       * Told when the engine scanned, by its descriptor, the very file `hashed` describes, unchanged until its verdict
       * (the local engine path): the pipeline then knows the file's identity at the verdict without a stat.
       */
      onUnchangedSinceHashed?: () => void;
    },
  ): Promise<Scan>;
  /** The scan with this reference, or null when the service has none (404). */
  lookup(externalReferenceId: string, signal: AbortSignal): Promise<Scan | null>;
  /** Polls (under the global request budget) until the scan is terminal. */
  follow(scanId: string, signal: AbortSignal): Promise<Scan>;
  /**
   * These terminal scans are recorded durably in the history: nothing will ask about them again,
   * not even crash recovery (it looks up only records that are not terminal). The embedded
   * service deletes them; a service without this keeps them.
   */
  recorded?(scanIds: readonly string[]): void;
  /**
   * The engine on this machine (the local engine path): a file sent again after a crash is only
   * scanned again, so nothing is written before it is sent; its digests and verdict are one write,
   * in a grouped commit (issue 26 §4). Absent: a row is committed before the upload.
   */
  readonly rescanAfterCrash?: boolean;
  /**
   * How many files it takes at once to good effect (at most MAX_SERVICE_CONCURRENCY); absent: the pipeline's
   * default. Used unless the pipeline was given a limit of its own.
   */
  readonly concurrency?: number;
}

/** The current backend, or why there is none to send to right now. */
export type ServiceAvailability =
  | { ok: true; service: ServicePort }
  | { ok: false; reason: 'awaiting_api_key' | 'backend_unavailable'; message: string };

export interface FileDigests {
  /** Absent when the fingerprinter left it out: the service's answer brings it (finish.ts). */
  md5?: string;
  sha1?: string;
  sha256: string;
  /** Bytes actually read: differs from the size when the file changed underneath. */
  bytesRead: number;
  /** The content, when the fingerprinter kept it (small files). */
  content?: Buffer;
  /** The file read, as it was when it was opened (its fstat). */
  opened: { size: number; mtimeMs: number; ctimeMs?: number; dev: number; ino: number };
  /** A stat of the path taken right after the read, when the fingerprinter took one (else the pipeline does). */
  after?: { size: number; mtimeMs: number; dev: number; ino: number; isFile: boolean } | null;
}

/** `sizeAtIntake`: the file's size when it was queued (null when unknown), to choose how to read it. */
export type Fingerprinter = (path: string, signal: AbortSignal, sizeAtIntake: number | null) => Promise<FileDigests>;

/** A file's identity at intake (nanoseconds), and when that fstat was taken at the latest (ms since the epoch). */
export interface IntakeIdentity {
  file: FileIdentity;
  atMs: number;
}

export type IntakeEntry =
  /** `identity`: its fstat in full at intake, when the intake took one (the unchanged-file skip then stats it no more). */
  | { ok: true; path: string; size: number; mtimeMs: number; identity?: IntakeIdentity }
  /** A path refused at intake; `params` say what its message says (shared/scans/failure.ts). */
  | { ok: false; path: string; code: string; message: string; params?: ScanFailureParams; excluded?: false }
  /**
   * A folder an exclusion covers, not walked: one skipped record stands for everything in it;
   * or a link out of the folder being walked, not followed (`params` say what its message says).
   */
  | { ok: false; excluded: true; path: string; code: string; message: string; params?: RecordError['params'] };

export interface IntakeOptions {
  /** Why a folder is excluded (the skipped record's error), or null to walk it; absent: every folder is walked. */
  excludedFolder?: (folderPath: string) => RecordError | null;
  /** The real path of the folder the paths were found in: links among them are followed only into it. */
  within?: string;
}

export type Intake = (paths: readonly string[], options?: IntakeOptions) => AsyncIterable<IntakeEntry>;

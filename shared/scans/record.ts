// A scan as Verdict tracks it locally: one history row per file handed to it.
// Shared by the core (which writes it), the IPC bridge and the renderer.
import { z } from 'zod';
import { engineIdentitySchema, findingSchema } from '../service-contract/scan.ts';
import { SCANNED_IN_PART_LABEL } from './coverage.ts';

/**
 * queued → uploading → processing → completed | failed. `skipped` is terminal
 * for files never sent (excluded by a rule); it is never shown as clean.
 */
export const localStatusSchema = z.enum(['queued', 'uploading', 'processing', 'completed', 'failed', 'skipped']);
export type LocalStatus = z.infer<typeof localStatusSchema>;
export const TERMINAL_STATUSES: readonly LocalStatus[] = ['completed', 'failed', 'skipped'];

/** `schedule`: a scan job started by its schedule (issue 16); automatic, as `watch` is. */
export const scanOriginSchema = z.enum(['drop', 'dialog', 'cli', 'watch', 'second-instance', 'rescan', 'schedule']);
export type ScanOrigin = z.infer<typeof scanOriginSchema>;

export const modeChoiceSchema = z.enum(['auto', 'sync', 'async']);
export type ModeChoice = z.infer<typeof modeChoiceSchema>;

export const errorParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/**
 * Why a scan failed, was skipped or its file could not be moved: a stable code, the
 * English sentence (CLIs, logs, export) and, where the UI words it itself, the
 * parameters it needs (shared/scans/exclusion.ts, shared/quarantine/entry.ts).
 */
export const recordErrorSchema = z.object({ code: z.string(), message: z.string(), params: errorParamsSchema.optional() });
export type RecordError = z.infer<typeof recordErrorSchema>;

/**
 * What was done about an unsafe verdict (issue 8). quarantine_pending: decided,
 * the move is not finished yet (a crash in between is finished at the next
 * start); quarantine_failed: the move was refused (the error says why);
 * restored / deleted: the user's action on the quarantined file; allowed: the
 * user allowed this content (the record then reads as "allowed", never "clean").
 */
export const dispositionSchema = z.enum(['quarantine_pending', 'quarantined', 'quarantine_failed', 'restored', 'deleted', 'allowed']);
export type Disposition = z.infer<typeof dispositionSchema>;

/** Why a record's disposition is `allowed` (see ScanRecord.allowedBy). */
export const allowedBySchema = z.enum(['content', 'name']);
export type AllowedBy = z.infer<typeof allowedBySchema>;

export const scanRecordSchema = z.object({
  id: z.string(),
  path: z.string(),
  fileName: z.string(),
  size: z.number().int().nonnegative().nullable(),
  md5: z.string().nullable(),
  sha1: z.string().nullable(),
  sha256: z.string().nullable(),
  mode: z.enum(['sync', 'async']).nullable(),
  origin: scanOriginSchema,
  /** `local` (embedded service) or the remote service's origin, e.g. https://scan.example.com */
  backend: z.string(),
  externalReferenceId: z.string(),
  serviceScanId: z.string().nullable(),
  status: localStatusSchema,
  /** Why a non-terminal scan is waiting (e.g. `awaiting_api_key`, `retrying`). */
  pendingReason: z.string().nullable(),
  /** true = judged safe, false = unsafe; null = no verdict (pending, failed, skipped). */
  safe: z.boolean().nullable(),
  detailed: z.string().nullable(),
  findings: z.array(findingSchema),
  /**
   * Who made the verdict (ClamAV and its signatures, or the built-in engine); null
   * when the service did not say (remote services, records before issue 14). Optional
   * without a default, like `disposition`.
   */
  engine: engineIdentitySchema.nullable().optional(),
  fileType: z.string().nullable(),
  queuedAt: z.string(),
  submittedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  error: recordErrorSchema.nullable(),
  /** Set when the verdict was reused from an earlier scan (the id of the row whose scan read the file). */
  reusedFromId: z.string().nullable(),
  /**
   * How it was reused: `content`, an earlier verdict for identical content (sha256); `unchanged`,
   * the file itself was not read again (same device, inode, size and times, same engine and
   * signatures). Absent on rows before it was recorded and on compacted rows.
   */
  reuseKind: z.enum(['content', 'unchanged']).nullable().optional(),
  /**
   * What was done about an unsafe verdict; null (or absent in records built before
   * issue 8): nothing (safe, no verdict, or notify only). Optional without a
   * default on purpose: a default would be filled into every patch.
   */
  disposition: dispositionSchema.nullable().optional(),
  /**
   * Why a record reads "allowed": `content`, its sha256 is on the allowed list; `name`, every finding's
   * detection name is (settings.allowedDetectionNames). Absent or null on records allowed before it
   * was recorded (read as `content`) and on any record not allowed.
   */
  allowedBy: allowedBySchema.nullable().optional(),
  /** The quarantine entry (shared/quarantine/entry.ts) of this scan's file, once there is one. */
  quarantineId: z.string().nullable().optional(),
  /** The scan job (shared/jobs/job.ts) this file was scanned by; absent for files scanned on their own. */
  jobId: z.number().int().positive().optional(),
  /**
   * A recheck's new scan whose verdict changed (issue 27 §1): the scan it replaces, which judged the file
   * clean under older signatures. Not stored in the record's row: added from recheck_links where it is shown.
   * Its reference and time are null once that scan's row is gone (a job's clean rows are compacted under new ids).
   */
  recheckOf: z.object({ id: z.string(), externalReferenceId: z.string().nullable(), completedAt: z.string().nullable() }).optional(),
});
export type ScanRecord = z.infer<typeof scanRecordSchema>;

/** What a record knows when it is queued. */
export type QueuedRecordFields = Pick<ScanRecord, 'id' | 'path' | 'fileName' | 'origin' | 'backend' | 'externalReferenceId' | 'queuedAt'>;

/** A record as it enters the queue: everything the scan will tell is still unknown (null). */
export function queuedRecord(fields: QueuedRecordFields): ScanRecord {
  return {
    ...fields,
    size: null,
    md5: null,
    sha1: null,
    sha256: null,
    mode: null,
    serviceScanId: null,
    status: 'queued',
    pendingReason: null,
    safe: null,
    detailed: null,
    findings: [],
    engine: null,
    fileType: null,
    submittedAt: null,
    completedAt: null,
    durationMs: null,
    error: null,
    reusedFromId: null,
    disposition: null,
    quarantineId: null,
  };
}

/**
 * `basic-only`: judged clean by the built-in engine alone (it knows only the EICAR test file,
 * ClamAV was not available): a clean answer that is never shown or counted as clean.
 * `partial`: scanned in part (over a scan limit, or encrypted; shared/scans/coverage.ts): neither clean nor a threat.
 */
export const VERDICTS = ['unsafe', 'safe', 'basic-only', 'partial', 'could-not-scan', 'pending', 'skipped', 'allowed'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * The built-in engine's clean label (electron/engine/engine.ts DETAILED_LABELS):
 * it tells a basic-checks verdict whose record does not say which engine made it.
 */
export const BASIC_CHECKS_CLEAN_LABEL = 'clean (basic checks only; ClamAV not available)';

/**
 * What verdictOf reads. `detailed` is a required key (the label tells basic checks when the
 * engine is not recorded); `engine` is optional in a ScanRecord, so pass it wherever it is known.
 */
export type VerdictFields = Pick<ScanRecord, 'status' | 'safe' | 'detailed' | 'engine'> & { disposition?: Disposition | null };

/** Whether a clean answer came from basic checks only: by the engine it names, else (engine not recorded) by its label. */
export function isBasicChecksOnly(record: Pick<VerdictFields, 'engine' | 'detailed'>): boolean {
  if (record.engine) return record.engine.name === 'builtin';
  return record.detailed === BASIC_CHECKS_CLEAN_LABEL;
}

/**
 * Whether the engine could inspect only part of the file (its label, set when every finding is a
 * limit or encryption heuristic). It is stored with `safe: false`, never as clean, and reads "partial".
 */
export function isScannedInPart(record: { detailed?: string | null }): boolean {
  return record.detailed === SCANNED_IN_PART_LABEL;
}

/**
 * The one place that decides how a record reads: "could not scan" is never
 * "clean", content the user allowed reads "allowed" (the engine's verdict
 * stays in `safe`), a clean answer of basic checks only reads "basic-only",
 * and a file scanned in part reads "partial": none of them is ever "clean".
 * A threat the built-in engine found stays "unsafe".
 */
export function verdictOf(record: VerdictFields): Verdict {
  if (record.status === 'skipped') return 'skipped';
  if (record.status === 'failed') return 'could-not-scan';
  if (record.status !== 'completed') return 'pending';
  if (record.safe === false) return record.disposition === 'allowed' ? 'allowed' : isScannedInPart(record) ? 'partial' : 'unsafe';
  // A clean answer given while the engine's self-test failed (isGivenWhileSelfTestFailed) stays "safe":
  // ClamAV did read the whole file with its signatures, unlike basic checks or a partial scan, and
  // the protection state already reads `failing`; the verdict carries the note wherever it is shown.
  if (record.safe === true) return isBasicChecksOnly(record) ? 'basic-only' : 'safe';
  return 'could-not-scan';
}

/** Whether the verdict was given while the engine's self-test failed (it did not detect the EICAR test file). */
export function isGivenWhileSelfTestFailed(record: Pick<VerdictFields, 'status' | 'engine'>): boolean {
  return record.status === 'completed' && record.engine?.selfTest === 'failed';
}

export interface UploadProgress {
  id: string;
  sent: number;
  total: number;
}

/** What a submission did with the paths it was given. */
export interface SubmitSummary {
  queued: number;
  /** Left out by an exclusion (a `skipped` row each). */
  skipped: number;
  /** Links met in a folder that lead out of it, not followed (a `skipped` row each, not counted in `skipped`). */
  linksNotFollowed: number;
  /** Refused at intake: not found, not a regular file, unreadable, too large (a `failed` row each). */
  failed: number;
}

export interface QueueCounts {
  queued: number;
  uploading: number;
  processing: number;
}

export type ScanEvent =
  /** `was`: the id the record had until this event (a job's clean file moved into its compact store). */
  | { type: 'record'; record: ScanRecord; was?: string }
  | { type: 'progress'; progress: UploadProgress }
  | { type: 'counts'; counts: QueueCounts }
  | { type: 'removed'; ids: string[] };

export const historyQuerySchema = z.object({
  statuses: z.array(localStatusSchema).max(10).optional(),
  verdicts: z.array(z.enum(VERDICTS)).max(10).optional(),
  /** Records waiting for one of these reasons (e.g. `awaiting_upload_consent`). */
  pendingReasons: z.array(z.string().max(64)).max(10).optional(),
  /** Matches file name (substring) or a digest (prefix). */
  search: z.string().max(512).optional(),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(1000).default(100),
  order: z.enum(['newest', 'oldest']).default('newest'),
  /** Only the rows of this scan job (its expansion in the list). */
  job: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * `threats`: of the rows that belong to a job, only its threats (the main list: a job is
   * one row of its own, see shownOutsideItsJob in shared/jobs/job.ts). Default: every row.
   */
  jobRows: z.enum(['all', 'threats']).optional(),
});
export type HistoryQuery = z.input<typeof historyQuerySchema>;

export interface Page<T> {
  items: T[];
  total: number;
  /**
   * Set when counting stopped early (a name search that matches many rows): at
   * least `total` match, and a page further on may count further.
   */
  totalIsLowerBound?: true;
}

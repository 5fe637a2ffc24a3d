// A scan as Verdict tracks it locally: one history row per file handed to it.
// Shared by the core (which writes it), the IPC bridge and the renderer.
import { z } from 'zod';
import { findingSchema } from '../service-contract/scan.ts';

/**
 * queued → uploading → processing → completed | failed. `skipped` is terminal
 * for files never sent (excluded by a rule); it is never shown as clean.
 */
export const localStatusSchema = z.enum(['queued', 'uploading', 'processing', 'completed', 'failed', 'skipped']);
export type LocalStatus = z.infer<typeof localStatusSchema>;
export const TERMINAL_STATUSES: readonly LocalStatus[] = ['completed', 'failed', 'skipped'];

export const scanOriginSchema = z.enum(['drop', 'dialog', 'cli', 'watch', 'second-instance', 'rescan']);
export type ScanOrigin = z.infer<typeof scanOriginSchema>;

export const modeChoiceSchema = z.enum(['auto', 'sync', 'async']);
export type ModeChoice = z.infer<typeof modeChoiceSchema>;

export const recordErrorSchema = z.object({ code: z.string(), message: z.string() });

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
  fileType: z.string().nullable(),
  queuedAt: z.string(),
  submittedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  error: recordErrorSchema.nullable(),
  /** Set when the verdict was reused from an earlier scan of identical content. */
  reusedFromId: z.string().nullable(),
});
export type ScanRecord = z.infer<typeof scanRecordSchema>;

export type Verdict = 'unsafe' | 'safe' | 'could-not-scan' | 'pending' | 'skipped';

/** The one place that decides how a record reads: "could not scan" is never "clean". */
export function verdictOf(record: Pick<ScanRecord, 'status' | 'safe'>): Verdict {
  if (record.status === 'skipped') return 'skipped';
  if (record.status === 'failed') return 'could-not-scan';
  if (record.status !== 'completed') return 'pending';
  if (record.safe === false) return 'unsafe';
  if (record.safe === true) return 'safe';
  return 'could-not-scan';
}

export interface UploadProgress {
  id: string;
  sent: number;
  total: number;
}

export interface QueueCounts {
  queued: number;
  uploading: number;
  processing: number;
}

export type ScanEvent =
  | { type: 'record'; record: ScanRecord }
  | { type: 'progress'; progress: UploadProgress }
  | { type: 'counts'; counts: QueueCounts }
  | { type: 'removed'; ids: string[] };

export const historyQuerySchema = z.object({
  statuses: z.array(localStatusSchema).max(10).optional(),
  verdicts: z.array(z.enum(['unsafe', 'safe', 'could-not-scan', 'pending', 'skipped'])).max(10).optional(),
  /** Matches file name (substring) or a digest (prefix). */
  search: z.string().max(512).optional(),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(1000).default(100),
  order: z.enum(['newest', 'oldest']).default('newest'),
});
export type HistoryQuery = z.input<typeof historyQuerySchema>;

export interface Page<T> {
  items: T[];
  total: number;
}

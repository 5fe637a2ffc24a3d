// The one place that maps a ScanRecord to a `scans` row and back. Text that may hold a file
// name (path, file name, error message) is stored losslessly (sqlite/stored-text.ts), so a name
// that is not UTF-8 reads back with its exact bytes.
import type { SQLInputValue } from 'node:sqlite';
import { errorParamsSchema, scanRecordSchema, type RecordError, type ScanRecord } from '../../shared/scans/record.ts';
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import { findingSchema } from '../../shared/service-contract/scan.ts';
import { fromStoredText, toStoredOrNull, toStoredText } from '../sqlite/stored-text.ts';
import { z } from 'zod';

/** Columns written on insert, in a fixed order (everything but `seq` and the generated `verdict`). */
export const RECORD_COLUMNS = [
  'id',
  'path',
  'file_name',
  'size',
  'md5',
  'sha1',
  'sha256',
  'mode',
  'origin',
  'backend',
  'external_reference_id',
  'service_scan_id',
  'status',
  'pending_reason',
  'safe',
  'detailed',
  'findings_json',
  'file_type',
  'queued_at',
  'submitted_at',
  'completed_at',
  'duration_ms',
  'error_code',
  'error_message',
  'reused_from_id',
  'disposition',
  'quarantine_id',
  'error_params',
  'engine_name',
  'engine_version',
  'signatures_version',
  'signatures_date',
  'signatures_basis',
  'signatures_digest',
  'reuse_kind',
  'allowed_by',
  'engine_detection',
  'engine_self_test',
] as const;
export type RecordColumn = (typeof RECORD_COLUMNS)[number];

/** What SELECT returns for a record (the RECORD_COLUMNS). */
export type ScanRow = Record<RecordColumn, SQLInputValue>;

/**
 * A record's fields that have columns of their own (`jobId` is written once, on insert: see history-writes.ts;
 * `recheckOf` is kept in recheck_links, electron/recheck/recheck-link.ts).
 */
type Field = Exclude<keyof ScanRecord, 'jobId' | 'recheckOf'>;

/** Which columns each record field is stored in (`error` takes three). */
const FIELD_COLUMNS: Record<Field, readonly RecordColumn[]> = {
  id: ['id'],
  path: ['path'],
  fileName: ['file_name'],
  size: ['size'],
  md5: ['md5'],
  sha1: ['sha1'],
  sha256: ['sha256'],
  mode: ['mode'],
  origin: ['origin'],
  backend: ['backend'],
  externalReferenceId: ['external_reference_id'],
  serviceScanId: ['service_scan_id'],
  status: ['status'],
  pendingReason: ['pending_reason'],
  safe: ['safe'],
  detailed: ['detailed'],
  findings: ['findings_json'],
  fileType: ['file_type'],
  queuedAt: ['queued_at'],
  submittedAt: ['submitted_at'],
  completedAt: ['completed_at'],
  durationMs: ['duration_ms'],
  error: ['error_code', 'error_message', 'error_params'],
  reusedFromId: ['reused_from_id'],
  reuseKind: ['reuse_kind'],
  disposition: ['disposition'],
  allowedBy: ['allowed_by'],
  quarantineId: ['quarantine_id'],
  engine: ['engine_name', 'engine_version', 'signatures_version', 'signatures_date', 'signatures_basis', 'signatures_digest', 'engine_detection', 'engine_self_test'],
};

/** Column values for the given fields of a (partial) record. */
export function fieldsToColumns(record: Partial<Omit<ScanRecord, 'jobId'>>): Partial<ScanRow> {
  const out: Partial<ScanRow> = {};
  for (const key of Object.keys(record) as Field[]) {
    if (!(key in FIELD_COLUMNS) || record[key] === undefined) continue;
    switch (key) {
      case 'safe':
        out.safe = record.safe === null || record.safe === undefined ? null : record.safe ? 1 : 0;
        break;
      case 'findings':
        out.findings_json = JSON.stringify(record.findings ?? []);
        break;
      case 'path':
        out.path = toStoredText(record.path!);
        break;
      case 'fileName':
        out.file_name = toStoredText(record.fileName!);
        break;
      case 'error':
        out.error_code = record.error?.code ?? null;
        out.error_message = toStoredOrNull(record.error?.message);
        out.error_params = record.error?.params ? JSON.stringify(record.error.params) : null;
        break;
      case 'engine':
        out.engine_name = record.engine?.name ?? null;
        out.engine_version = record.engine?.version ?? null;
        out.signatures_version = record.engine?.signatures?.version ?? null;
        out.signatures_date = record.engine?.signatures?.date ?? null;
        out.signatures_basis = record.engine?.signatureBasis ?? null;
        out.signatures_digest = record.engine?.databases ?? null;
        out.engine_detection = record.engine?.detection ?? null;
        out.engine_self_test = record.engine?.selfTest ?? null;
        break;
      default: {
        const [column] = FIELD_COLUMNS[key];
        out[column as RecordColumn] = record[key] as SQLInputValue;
      }
    }
  }
  return out;
}

export function recordToRow(record: ScanRecord): ScanRow {
  return fieldsToColumns(record) as ScanRow;
}

/**
 * A whole record's values in RECORD_COLUMNS' order, mapped as fieldsToColumns maps each field (a property
 * test holds the two alike), for an INSERT. One array, not an object built column by column: that object
 * was a twelfth of what the core's thread allocated in a 20,000-file first scan.
 */
export function recordValues(r: ScanRecord): SQLInputValue[] {
  const engine = r.engine;
  const error = r.error;
  return [
    r.id ?? null, r.path === undefined ? null : toStoredText(r.path), r.fileName === undefined ? null : toStoredText(r.fileName),
    r.size ?? null, r.md5 ?? null, r.sha1 ?? null, r.sha256 ?? null, r.mode ?? null, r.origin ?? null, r.backend ?? null,
    r.externalReferenceId ?? null, r.serviceScanId ?? null, r.status ?? null, r.pendingReason ?? null,
    r.safe === null || r.safe === undefined ? null : r.safe ? 1 : 0, r.detailed ?? null,
    r.findings === undefined ? null : JSON.stringify(r.findings ?? []), r.fileType ?? null,
    r.queuedAt ?? null, r.submittedAt ?? null, r.completedAt ?? null, r.durationMs ?? null,
    error?.code ?? null, toStoredOrNull(error?.message), r.reusedFromId ?? null, r.disposition ?? null, r.quarantineId ?? null,
    error?.params ? JSON.stringify(error.params) : null,
    engine?.name ?? null, engine?.version ?? null, engine?.signatures?.version ?? null, engine?.signatures?.date ?? null,
    engine?.signatureBasis ?? null, engine?.databases ?? null, r.reuseKind ?? null, r.allowedBy ?? null,
    engine?.detection ?? null, engine?.selfTest ?? null,
  ];
}

const findingsSchema = z.array(findingSchema);

export function rowToRecord(row: Record<string, unknown>): ScanRecord {
  const str = (column: RecordColumn) => row[column] as string;
  const strOrNull = (column: RecordColumn) => (row[column] ?? null) as string | null;
  const numOrNull = (column: RecordColumn) => (row[column] === null || row[column] === undefined ? null : Number(row[column]));
  const errorCode = strOrNull('error_code');
  return {
    id: str('id'),
    path: fromStoredText(str('path')),
    fileName: fromStoredText(str('file_name')),
    size: numOrNull('size'),
    md5: strOrNull('md5'),
    sha1: strOrNull('sha1'),
    sha256: strOrNull('sha256'),
    mode: strOrNull('mode') as ScanRecord['mode'],
    origin: str('origin') as ScanRecord['origin'],
    backend: str('backend'),
    externalReferenceId: str('external_reference_id'),
    serviceScanId: strOrNull('service_scan_id'),
    status: str('status') as ScanRecord['status'],
    pendingReason: strOrNull('pending_reason'),
    safe: row.safe === null || row.safe === undefined ? null : Number(row.safe) === 1,
    detailed: strOrNull('detailed'),
    findings: parseFindings(strOrNull('findings_json')),
    fileType: strOrNull('file_type'),
    queuedAt: str('queued_at'),
    submittedAt: strOrNull('submitted_at'),
    completedAt: strOrNull('completed_at'),
    durationMs: numOrNull('duration_ms'),
    error: errorCode === null ? null : withParams({ code: errorCode, message: fromStoredText(strOrNull('error_message') ?? '') }, strOrNull('error_params')),
    reusedFromId: strOrNull('reused_from_id'),
    disposition: strOrNull('disposition') as ScanRecord['disposition'],
    quarantineId: strOrNull('quarantine_id'),
    engine: engineOf(strOrNull('engine_name'), strOrNull('engine_version'), numOrNull('signatures_version'), strOrNull('signatures_date'), {
      basis: strOrNull('signatures_basis'),
      digest: strOrNull('signatures_digest'),
      detection: strOrNull('engine_detection'),
      selfTest: strOrNull('engine_self_test'),
    }),
    // Absent unless set (a compacted row, a row before migration 13), like `disposition`.
    ...(row.reuse_kind === 'content' || row.reuse_kind === 'unchanged' ? { reuseKind: row.reuse_kind } : {}),
    // Absent unless set (a row before migration 14, a record never allowed).
    ...(row.allowed_by === 'content' || row.allowed_by === 'name' ? { allowedBy: row.allowed_by } : {}),
    // Absent for a file scanned on its own, so such records read exactly as before jobs existed.
    ...(row.job_id === null || row.job_id === undefined ? {} : { jobId: Number(row.job_id) }),
  };
}

/** The verdict's engine from its columns; an unknown name (a newer Verdict's engine) reads as not recorded. */
function engineOf(name: string | null, version: string | null, signatures: number | null, date: string | null, known: { basis: string | null; digest: string | null; detection: string | null; selfTest: string | null }): EngineIdentity | null {
  if (name !== 'clamav' && name !== 'builtin') return null;
  const identity: EngineIdentity = {
    name,
    version,
    signatures: signatures !== null && date !== null ? { version: signatures, date } : null,
    ...(known.detection !== null ? { detection: known.detection } : {}),
    ...(known.selfTest === 'failed' ? { selfTest: 'failed' as const } : {}),
  };
  if (known.basis === 'databases' && known.digest !== null) return { ...identity, signatureBasis: 'databases', databases: known.digest };
  return known.basis === 'version' ? { ...identity, signatureBasis: 'version' } : identity;
}

/** An error's parameters, when its row has readable ones (a damaged cell leaves the English message alone). */
function withParams(error: RecordError, json: string | null): RecordError {
  if (!json) return error;
  try {
    const parsed = errorParamsSchema.safeParse(JSON.parse(json));
    return parsed.success ? { ...error, params: parsed.data } : error;
  } catch {
    return error;
  }
}

/** A damaged findings cell must not make the whole history unreadable. */
function parseFindings(json: string | null): ScanRecord['findings'] {
  if (!json) return [];
  try {
    const parsed = findingsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Validates a whole record before it is stored. */
export const insertSchema = scanRecordSchema;

/** Validates a patch: any subset of fields except `id`. */
export const patchSchema = scanRecordSchema.omit({ id: true, jobId: true }).partial().strict();
export type ScanRecordPatch = z.infer<typeof patchSchema>;

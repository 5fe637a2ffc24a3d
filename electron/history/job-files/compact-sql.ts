// How a job's clean file is kept in the compact store (migration 9) and read back as a
// ScanRecord, in SQL: what may move there, and the columns of a `scans` row rebuilt from it.
// A row moves only when it reads back exactly as it was (times in the pipeline's ISO form,
// digests in lowercase hex); any other stays in `scans`, where every read finds it too.
import { KIND_COLUMNS_OF_MIGRATION_22 } from '../compact-kinds-migration.ts';

/** ISO text (…T…Z, milliseconds) → milliseconds since 1970. */
export const msOf = (iso: string): string => `CAST(round(unixepoch(${iso}, 'subsec') * 1000) AS INTEGER)`;

/** Milliseconds → the ISO text the pipeline writes (toISOString()); NULL stays NULL. */
export const isoOf = (ms: string): string => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`;

const roundTrips = (column: string) => `(${column} IS NULL OR ${isoOf(msOf(column))} = ${column})`;
const lowerHex = (column: string, chars: number) => `(${column} IS NULL OR (length(${column}) = ${chars} AND lower(${column}) = ${column} AND unhex(${column}) IS NOT NULL))`;

/** A clean verdict with nothing else to it (no finding, error, disposition or pending rescan), that reads back exactly. */
export const COMPACTABLE = [
  "s.status = 'completed'",
  's.safe = 1',
  's.disposition IS NULL',
  's.quarantine_id IS NULL',
  's.error_code IS NULL',
  's.pending_reason IS NULL',
  "s.findings_json = '[]'",
  's.rescan_requested_at IS NULL',
  roundTrips('s.queued_at'),
  roundTrips('s.submitted_at'),
  roundTrips('s.completed_at'),
  lowerHex('s.sha256', 64),
  lowerHex('s.md5', 32),
  lowerHex('s.sha1', 40),
].join(' AND ');

/**
 * The folder of a path, up to and including its last separator (`/` or `\`): rtrim takes off every
 * trailing character that is not a separator. The rest of the path is the row's `name`.
 */
export const FOLDER_OF_PATH = `rtrim(s.path, replace(replace(s.path, '/', ''), '\\', ''))`;

/** The columns that repeat from file to file (a few distinct kinds per job): the verdict's engine in full (migration 22). */
export const KIND_COLUMNS = ['origin', 'backend', 'mode', 'detailed', 'file_type', 'engine_name', 'engine_version', 'signatures_version', 'signatures_date', ...KIND_COLUMNS_OF_MIGRATION_22] as const;

/** A compact file's record id: never a scan's id (a UUID), and never given to another file (AUTOINCREMENT). */
export const COMPACT_ID_PREFIX = 'clean:';

const hexOf = (column: string) => `CASE WHEN ${column} IS NULL THEN NULL ELSE lower(hex(${column})) END`;

/** A compact file as the columns of a `scans` row (history-db.ts SELECT_COLUMNS), from c (file), f (folder) and k (kind). */
export const RECORD_OF_COMPACT = `
  '${COMPACT_ID_PREFIX}' || c.id AS id, f.path || c.name AS path, coalesce(c.file_name, c.name) AS file_name, c.size AS size,
  ${hexOf('c.md5')} AS md5, ${hexOf('c.sha1')} AS sha1, ${hexOf('c.sha256')} AS sha256,
  k.mode AS mode, k.origin AS origin, k.backend AS backend, '${COMPACT_ID_PREFIX}' || c.id AS external_reference_id, NULL AS service_scan_id,
  'completed' AS status, NULL AS pending_reason, 1 AS safe, k.detailed AS detailed, '[]' AS findings_json, k.file_type AS file_type,
  ${isoOf('c.queued_ms')} AS queued_at, ${isoOf('c.queued_ms + c.submitted_ms')} AS submitted_at, ${isoOf('c.queued_ms + c.completed_ms')} AS completed_at,
  c.duration_ms AS duration_ms, NULL AS error_code, NULL AS error_message, c.reused_from_id AS reused_from_id,
  NULL AS disposition, NULL AS quarantine_id, NULL AS error_params,
  k.engine_name AS engine_name, k.engine_version AS engine_version, k.signatures_version AS signatures_version, k.signatures_date AS signatures_date,
  k.signatures_basis AS signatures_basis, k.signatures_digest AS signatures_digest, k.engine_detection AS engine_detection, k.engine_self_test AS engine_self_test, k.reuse_kind AS reuse_kind,
  c.job_id AS job_id`;

export const COMPACT_FROM = 'job_clean_files AS c JOIN job_folders AS f ON f.id = c.folder_id JOIN job_file_kinds AS k ON k.id = c.kind_id';

// CSV and JSON renderings of scan records for export, produced as a stream of
// text chunks so an export of any size holds only one chunk in memory. A name that is not
// UTF-8 is written as valid text (`⟨0xFF⟩` for each such byte) with its exact bytes beside it
// (`path_bytes`, `pathBytes`: base64), as the CLI's --json does.
import type { Writable } from 'node:stream';
import { withVisibleBytes } from '../../shared/file-name-bytes.ts';
import { verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import { pathBytesOf, visibleBytesReplacer } from '../file-names/written-names.ts';
import { writeFileAtomic } from '../settings/atomic-write.ts';

/** Where an export goes: a file path (written atomically) or an open stream (left open). */
export type ExportTarget = string | Writable;

const CSV_COLUMNS: ReadonlyArray<readonly [string, (record: ScanRecord) => string | number | boolean | null]> = [
  ['id', (r) => r.id],
  ['queued_at', (r) => r.queuedAt],
  ['submitted_at', (r) => r.submittedAt],
  ['completed_at', (r) => r.completedAt],
  ['verdict', (r) => verdictOf(r)],
  ['status', (r) => r.status],
  ['safe', (r) => r.safe],
  ['detailed', (r) => r.detailed],
  ['findings', (r) => r.findings.map((f) => (f.engine ? `${f.name} (${[f.engine, ...(f.feed ? [`feed: ${f.feed}`] : []), ...(f.ruleFile ? [`rule file: ${f.ruleFile}`] : [])].join(', ')})` : f.name)).join('; ')],
  ['path', (r) => r.path],
  ['file_name', (r) => r.fileName],
  ['size', (r) => r.size],
  ['md5', (r) => r.md5],
  ['sha1', (r) => r.sha1],
  ['sha256', (r) => r.sha256],
  ['file_type', (r) => r.fileType],
  ['mode', (r) => r.mode],
  ['origin', (r) => r.origin],
  ['backend', (r) => r.backend],
  ['external_reference_id', (r) => r.externalReferenceId],
  ['service_scan_id', (r) => r.serviceScanId],
  ['duration_ms', (r) => r.durationMs],
  ['pending_reason', (r) => r.pendingReason],
  ['error_code', (r) => r.error?.code ?? null],
  ['error_message', (r) => r.error?.message ?? null],
  ['reused_from_id', (r) => r.reusedFromId],
  ['disposition', (r) => r.disposition ?? null],
  ['quarantine_id', (r) => r.quarantineId ?? null],
  // Who made the verdict (issue 14): `clamav` or `builtin`, empty when not known.
  ['engine', (r) => r.engine?.name ?? null],
  ['engine_version', (r) => r.engine?.version ?? null],
  ['signatures_version', (r) => r.engine?.signatures?.version ?? null],
  ['signatures_date', (r) => r.engine?.signatures?.date ?? null],
  // The path's raw bytes (base64) when it is not UTF-8; empty otherwise.
  ['path_bytes', (r) => pathBytesOf(r.path) ?? null],
  // Why an allowed record is allowed (issue 28 §1): `content` or `name`; empty when it is not allowed.
  ['allowed_by', (r) => (r.disposition === 'allowed' ? (r.allowedBy ?? 'content') : null)],
];

export const CSV_HEADER = CSV_COLUMNS.map(([name]) => name);

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, with
 * quotes doubled. Text starting with = + - @ TAB or CR gets a leading `'` so a
 * spreadsheet shows a hostile file name instead of running it as a formula.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: ReadonlyArray<string | number | boolean | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

const CHUNK_CHARS = 64 * 1024;

const visible = (value: string | number | boolean | null) => (typeof value === 'string' ? withVisibleBytes(value) : value);

/** The CSV text (header first, CRLF line ends), in chunks of about 64 KiB. */
export function* csvChunks(records: Iterable<ScanRecord>): Generator<string> {
  let chunk = csvLine(CSV_HEADER);
  for (const record of records) {
    chunk += csvLine(CSV_COLUMNS.map(([, get]) => visible(get(record))));
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** A JSON array of ScanRecords (one per line; a name that is not UTF-8 as text, plus `pathBytes`), in chunks of about 64 KiB. */
export function* jsonChunks(records: Iterable<ScanRecord>): Generator<string> {
  let chunk = '[';
  let first = true;
  for (const record of records) {
    const pathBytes = pathBytesOf(record.path);
    chunk += `${first ? '\n' : ',\n'}${JSON.stringify(pathBytes === undefined ? record : { ...record, pathBytes }, visibleBytesReplacer)}`;
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}\n]\n`;
}

/** Sends chunks to the target, waiting for the stream to drain so memory stays flat. */
export async function writeChunks(target: ExportTarget, chunks: Iterable<string>): Promise<void> {
  if (typeof target === 'string') {
    await writeFileAtomic(target, chunks);
    return;
  }
  for (const chunk of chunks) {
    if (target.destroyed) throw new Error('The export stream was closed before the export finished.');
    if (!target.write(chunk)) await drained(target);
  }
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('drain', onDrain).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error('The export stream was closed before the export finished.'));
    stream.on('drain', onDrain).on('error', onError).on('close', onClose);
  });
}

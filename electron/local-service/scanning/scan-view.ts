// Builds the wire shapes of spec 2.1 from a stored scan: the seven-field async
// submission response, and the scan returned by sync submissions, GETs and
// webhooks (terminal fields only once the scan is terminal).
import type { Language } from '../../../shared/service-contract/limits.ts';
import type { AsyncSubmission, Scan, ScanError } from '../../../shared/service-contract/scan.ts';
import type { EngineErrorCode } from '../../engine/engine.ts';
import { render, type Message, type MessageKey } from '../messages/catalogue.ts';
import type { StoredScan, StoredScanError } from '../store/scan-store.ts';

/** Failure codes the service itself assigns (engines add their own EngineError codes). */
export const INTERRUPTED = 'interrupted';
export const ENGINE_FAILED_UNEXPECTEDLY = 'engine_error';

export function toAsyncSubmission(scan: StoredScan): AsyncSubmission {
  return {
    id: scan.id,
    ...(scan.externalReferenceId !== null ? { external_reference_id: scan.externalReferenceId } : {}),
    status: 'processing',
    execution_mode: 'async',
    file_name: scan.fileName,
    file_size: scan.fileSize,
    submitted_at: scan.submittedAt,
  };
}

export function toScan(scan: StoredScan, language: Language): Scan {
  // Members in the order of spec 2.1, so responses read like the spec's table.
  const terminal: Partial<Scan> = {};
  // A processing scan shows what the spec lists as always present; the rest "becomes available" on completion.
  if (scan.status !== 'processing') {
    if (scan.fileType !== null) terminal.file_type = scan.fileType;
    if (scan.fileHash !== null) terminal.file_hash = scan.fileHash;
    if (scan.status === 'completed' && scan.result !== null) {
      terminal.result = scan.result;
      // Who made the verdict (our addition; clients of the spec ignore it). null: not known (scanned before it was kept).
      terminal.engine = scan.engine;
    }
    if (scan.status === 'failed') terminal.error = toScanError(scan.error ?? { code: ENGINE_FAILED_UNEXPECTEDLY, detail: null }, language);
    if (scan.completedAt !== null) terminal.completed_at = scan.completedAt;
    if (scan.scanDurationMs !== null) terminal.scan_duration_ms = scan.scanDurationMs;
  }
  return {
    id: scan.id,
    ...(scan.externalReferenceId !== null ? { external_reference_id: scan.externalReferenceId } : {}),
    status: scan.status,
    execution_mode: scan.executionMode,
    file_name: scan.fileName,
    file_size: scan.fileSize,
    ...terminal,
    submitted_at: scan.submittedAt,
  };
}

const REASONS: Record<EngineErrorCode, MessageKey> = {
  engine_unavailable: 'engineUnavailable',
  clamav_unavailable: 'clamavUnavailable',
  engine_timeout: 'engineTimeout',
  engine_size_limit: 'engineSizeLimit',
  engine_error: 'engineFailed',
  engine_aborted: 'engineAborted',
  file_unreadable: 'fileUnreadable',
};

function toScanError(error: StoredScanError, language: Language): ScanError {
  let message: Message;
  if (error.code === INTERRUPTED) message = { key: 'scanInterrupted' };
  else if (error.detail !== null) {
    const reasonKey = REASONS[error.code as EngineErrorCode] ?? 'engineFailed';
    const reason = render({ key: reasonKey } as Message, language);
    message = { key: 'scanFailed', params: { reason, detail: error.detail } };
  } else message = { key: 'scanFailedUnexpectedly' };
  return { code: error.code, message: render(message, language) };
}

// The scans table: one row per submission, keyed by id, with the external
// reference unique per integration. Rows map to StoredScan; the wire shape is
// built from it in scanning/scan-view.ts.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { engineIdentitySchema, type ExecutionMode, type FileHash, type ScanResult, type ScanStatus } from '../../../shared/service-contract/scan.ts';
import { createTransactions } from '../../sqlite/statements.ts';
import { PendingWrites } from './pending-writes.ts';

/** Why a scan failed: a code, and the engine's own explanation when it gave one. */
export interface StoredScanError {
  code: string;
  detail: string | null;
}

export interface StoredScan {
  id: string;
  integrationId: string;
  externalReferenceId: string | null;
  status: ScanStatus;
  executionMode: ExecutionMode;
  fileName: string;
  fileSize: number;
  fileType: string | null;
  fileHash: FileHash | null;
  result: ScanResult | null;
  /** Who made the verdict; null without one, or when the engine did not say. */
  engine: EngineIdentity | null;
  error: StoredScanError | null;
  submittedAt: string;
  completedAt: string | null;
  scanDurationMs: number | null;
}

export type NewScan = Pick<
  StoredScan,
  'id' | 'integrationId' | 'externalReferenceId' | 'executionMode' | 'fileName' | 'fileSize' | 'fileType' | 'fileHash' | 'submittedAt'
>;

export interface CompleteOutcome {
  result: ScanResult;
  engine: EngineIdentity | null;
  completedAt: string;
  scanDurationMs: number;
}

export interface FailOutcome {
  error: StoredScanError;
  completedAt: string;
  scanDurationMs: number | null;
}

/**
 * Every write commits before it returns (and with it any pending insert), except
 * `insertPending`. Reads by id or reference, which answer clients, commit first.
 */
export interface ScanStore {
  /** Inserts a processing scan; `duplicate` when the integration already used the reference. */
  insert(scan: NewScan): 'inserted' | 'duplicate';
  /**
   * Inserts a processing scan that is committed later (pending-writes.ts): with the next write or
   * commit(). For a scan nobody is told of before another write records its outcome.
   */
  insertPending(scan: NewScan): 'inserted' | 'duplicate';
  /** Commits pending inserts now (before anyone is told of them). */
  commit(): void;
  get(id: string): StoredScan | null;
  findById(integrationId: string, id: string): StoredScan | null;
  findByReference(integrationId: string, externalReferenceId: string): StoredScan | null;
  listProcessing(): StoredScan[];
  /**
   * Records a processing scan's verdict and returns the scan as stored. `current`: the scan as
   * it was stored while processing (known to the caller), so the row need not be read back.
   */
  complete(id: string, outcome: CompleteOutcome, current?: StoredScan): StoredScan | null;
  fail(id: string, outcome: FailOutcome, current?: StoredScan): StoredScan | null;
  /** Deletes a scan that is still processing (a sync scan nobody was answered about; see scanning/recovery.ts). */
  forget(id: string): boolean;
  /**
   * Deletes terminal scans of this integration that its client has recorded durably (it will
   * not ask about them again, not even to recover after a crash); a scan still processing, or
   * one whose webhook event waits for delivery, is kept. Returns how many were deleted.
   */
  forgetRecorded(integrationId: string, ids: readonly string[]): number;
  /** Deletes terminal scans completed before `iso` (store/finished-retention.ts), but not one whose webhook event waits; how many. */
  forgetFinishedBefore(iso: string): number;
  /** Runs `fn` in one write transaction: a status change and the webhook event that reports it commit together. */
  transaction<T>(fn: () => T): T;
}

interface ScanRow {
  id: string;
  integration_id: string;
  external_reference_id: string | null;
  status: ScanStatus;
  execution_mode: ExecutionMode;
  file_name: string;
  file_size: number;
  file_type: string | null;
  md5: string | null;
  sha1: string | null;
  sha256: string | null;
  result_safe: number | null;
  result_detailed: string | null;
  result_findings: string | null;
  engine_json: string | null;
  error_code: string | null;
  error_detail: string | null;
  submitted_at: string;
  completed_at: string | null;
  scan_duration_ms: number | null;
}

const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** The row `insert` has just stored, without reading it back. */
export function processingScan(scan: NewScan): StoredScan {
  return { ...scan, status: 'processing', result: null, engine: null, error: null, completedAt: null, scanDurationMs: null };
}

function fromRow(row: ScanRow): StoredScan {
  return {
    id: row.id,
    integrationId: row.integration_id,
    externalReferenceId: row.external_reference_id,
    status: row.status,
    executionMode: row.execution_mode,
    fileName: row.file_name,
    fileSize: row.file_size,
    fileType: row.file_type,
    fileHash: row.md5 !== null && row.sha1 !== null && row.sha256 !== null ? { md5: row.md5, sha1: row.sha1, sha256: row.sha256 } : null,
    result:
      row.result_safe !== null && row.result_detailed !== null
        ? { safe: row.result_safe === 1, detailed: row.result_detailed, findings: JSON.parse(row.result_findings ?? '[]') as ScanResult['findings'] }
        : null,
    engine: parseEngine(row.engine_json),
    error: row.error_code !== null ? { code: row.error_code, detail: row.error_detail } : null,
    submittedAt: row.submitted_at,
    completedAt: row.completed_at,
    scanDurationMs: row.scan_duration_ms,
  };
}

/** The last engine cells read: every verdict of one clamd carries the same identity, so it is checked once. */
const parsedEngines = new Map<string, EngineIdentity | null>();
const PARSED_ENGINES_KEPT = 8;

/** A damaged cell reads as "engine unknown" rather than failing the scan's GET. */
function parseEngine(json: string | null): EngineIdentity | null {
  if (json === null) return null;
  const known = parsedEngines.get(json);
  if (known !== undefined) return known;
  let engine: EngineIdentity | null = null;
  try {
    const parsed = engineIdentitySchema.safeParse(JSON.parse(json));
    if (parsed.success) engine = parsed.data;
  } catch {
    // stays null
  }
  if (parsedEngines.size >= PARSED_ENGINES_KEPT) parsedEngines.clear();
  parsedEngines.set(json, engine);
  return engine;
}

/**
 * Deletes recorded scans (ScanStore.forgetRecorded). `+integration_id`: each listed id is looked up
 * by its key, rather than every row of the integration scanned for it.
 */
export const FORGET_RECORDED_SQL = `DELETE FROM scans WHERE +integration_id = ? AND status <> 'processing' AND id IN (SELECT value FROM json_each(?))
  AND id NOT IN (SELECT scan_id FROM webhook_outbox)`;

export function createScanStore(db: DatabaseSync): ScanStore {
  const insert = db.prepare(
    `INSERT INTO scans (id, integration_id, external_reference_id, status, execution_mode, file_name, file_size, file_type, md5, sha1, sha256, submitted_at)
     VALUES (?, ?, ?, 'processing', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare('SELECT * FROM scans WHERE id = ?');
  const byOwnedId = db.prepare('SELECT * FROM scans WHERE id = ? AND integration_id = ?');
  const byReference = db.prepare('SELECT * FROM scans WHERE integration_id = ? AND external_reference_id = ?');
  const processing = db.prepare(`SELECT * FROM scans WHERE status = 'processing' ORDER BY submitted_at`);
  // Only a processing scan may change: terminal states are final (spec section 3).
  // RETURNING gives the stored row in the same statement; a row that was already
  // terminal returns nothing and is read as it is.
  const complete = db.prepare(
    `UPDATE scans SET status = 'completed', result_safe = ?, result_detailed = ?, result_findings = ?, engine_json = ?, completed_at = ?, scan_duration_ms = ?
     WHERE id = ? AND status = 'processing' RETURNING *`,
  );
  const fail = db.prepare(
    `UPDATE scans SET status = 'failed', error_code = ?, error_detail = ?, completed_at = ?, scan_duration_ms = ?
     WHERE id = ? AND status = 'processing' RETURNING *`,
  );
  // The same changes without RETURNING, for callers that know the rest of the row.
  const completeKnown = db.prepare(
    `UPDATE scans SET status = 'completed', result_safe = ?, result_detailed = ?, result_findings = ?, engine_json = ?, completed_at = ?, scan_duration_ms = ?
     WHERE id = ? AND status = 'processing'`,
  );
  const failKnown = db.prepare(
    `UPDATE scans SET status = 'failed', error_code = ?, error_detail = ?, completed_at = ?, scan_duration_ms = ?
     WHERE id = ? AND status = 'processing'`,
  );

  const forget = db.prepare(`DELETE FROM scans WHERE id = ? AND status = 'processing'`);
  const forgetRecorded = db.prepare(FORGET_RECORDED_SQL);
  const forgetFinished = db.prepare(
    `DELETE FROM scans WHERE status <> 'processing' AND completed_at < ? AND id NOT IN (SELECT scan_id FROM webhook_outbox)`,
  );
  const one = (statement: StatementSync, ...params: SQLInputValue[]): StoredScan | null => {
    const row = statement.get(...params) as ScanRow | undefined;
    return row ? fromRow(row) : null;
  };
  const record = outcomeWriter(one, { complete, completeKnown, fail, failKnown, byId });
  const { write: inTransaction } = createTransactions(db);
  const pending = new PendingWrites(db);
  /** A write that is durable when it returns: it commits the pending ones along with it. */
  const durable = <T>(write: () => T): T => {
    const result = write();
    pending.commit();
    return result;
  };
  /** Reads that answer a client: nothing pending may show before it is committed. */
  const told = <T>(read: () => T): T => {
    pending.commit();
    return read();
  };
  const insertRow = (scan: NewScan): 'inserted' | 'duplicate' => {
    try {
      insert.run(
        scan.id,
        scan.integrationId,
        scan.externalReferenceId,
        scan.executionMode,
        scan.fileName,
        scan.fileSize,
        scan.fileType,
        scan.fileHash?.md5 ?? null,
        scan.fileHash?.sha1 ?? null,
        scan.fileHash?.sha256 ?? null,
        scan.submittedAt,
      );
      return 'inserted';
    } catch (error) {
      if ((error as { errcode?: number }).errcode === SQLITE_CONSTRAINT_UNIQUE) return 'duplicate';
      throw error;
    }
  };

  return {
    insert: (scan) => durable(() => insertRow(scan)),
    insertPending(scan) {
      let outcome: 'inserted' | 'duplicate' = 'duplicate';
      try {
        outcome = pending.add(() => insertRow(scan));
        return outcome;
      } finally {
        // Nothing of this scan waits: leave no transaction open for it.
        if (outcome === 'duplicate') pending.commit();
      }
    },
    commit: () => pending.commit(),
    get: (id) => one(byId, id),
    findById: (integrationId, id) => told(() => one(byOwnedId, id, integrationId)),
    findByReference: (integrationId, reference) => told(() => one(byReference, integrationId, reference)),
    listProcessing: () => (processing.all() as unknown as ScanRow[]).map(fromRow),
    complete: (id, outcome, current) => durable(() => record.complete(id, outcome, current)),
    fail: (id, outcome, current) => durable(() => record.fail(id, outcome, current)),
    forget: (id) => durable(() => forget.run(id).changes > 0),
    forgetFinishedBefore: (iso) => durable(() => Number(forgetFinished.run(iso).changes)),
    forgetRecorded: (integrationId, ids) => (ids.length === 0 ? 0 : durable(() => Number(forgetRecorded.run(integrationId, JSON.stringify(ids)).changes))),
    transaction: (fn) => {
      pending.commit();
      return inTransaction(fn);
    },
  };
}

interface OutcomeStatements {
  complete: StatementSync;
  completeKnown: StatementSync;
  fail: StatementSync;
  failKnown: StatementSync;
  byId: StatementSync;
}

/** Records outcomes, each returning the scan as stored (read back, or built from `current` when given). */
function outcomeWriter(one: (statement: StatementSync, ...params: SQLInputValue[]) => StoredScan | null, statements: OutcomeStatements) {
  const { complete, completeKnown, fail, failKnown, byId } = statements;
  return {
    complete(id: string, outcome: CompleteOutcome, current?: StoredScan): StoredScan | null {
      const { result, completedAt, scanDurationMs } = outcome;
      const findingsJson = JSON.stringify(result.findings);
      const engineJson = outcome.engine ? JSON.stringify(outcome.engine) : null;
      const params: SQLInputValue[] = [result.safe ? 1 : 0, result.detailed, findingsJson, engineJson, completedAt, scanDurationMs, id];
      if (!current) return one(complete, ...params) ?? one(byId, id);
      if (completeKnown.run(...params).changes === 0) return one(byId, id);
      // What fromRow would read back: the findings as stored, the engine as a GET would show it.
      const stored = { safe: result.safe, detailed: result.detailed, findings: JSON.parse(findingsJson) as ScanResult['findings'] };
      return { ...current, status: 'completed', result: stored, engine: parseEngine(engineJson), error: null, completedAt, scanDurationMs };
    },
    fail(id: string, outcome: FailOutcome, current?: StoredScan): StoredScan | null {
      const { error, completedAt, scanDurationMs } = outcome;
      const params: SQLInputValue[] = [error.code, error.detail, completedAt, scanDurationMs, id];
      if (!current) return one(fail, ...params) ?? one(byId, id);
      if (failKnown.run(...params).changes === 0) return one(byId, id);
      return { ...current, status: 'failed', result: null, engine: null, error: { code: error.code, detail: error.detail }, completedAt, scanDurationMs };
    },
  };
}

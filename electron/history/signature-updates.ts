// The signature updates the core noticed (migration 19, signature-updates-migration.ts): a row
// is written only when the signatures in use differ from the newest row's, so a restart or a
// clamd that comes back with the same signatures adds nothing.
import type { SignatureUpdate } from '../../shared/overview/overview.ts';
import type { HistoryDb } from './history-db.ts';

/** The signatures in use, as the core sees them now (signature-updates/ reads it from the protection state). */
export interface SignaturesNoticed {
  noticedMs: number;
  engine: string;
  engineVersion: string | null;
  /** What tells these signatures apart: the database digest, else the signature version. */
  identity: string;
  signatureVersion: number | null;
  databases: string | null;
  /** Build date, ISO; null when not known. */
  signatureDate: string | null;
}

export interface SignatureUpdates {
  /** Writes the signatures in use when they differ from the newest row's; returns whether it wrote. */
  notice(signatures: SignaturesNoticed): boolean;
  /** The newest row, or null before the first. */
  latest(): SignaturesNoticed | null;
}

/** The statements the overview runs on this table (the query-plan test explains them). */
export const SIGNATURE_UPDATES_SQL = {
  latest: 'SELECT * FROM signature_updates ORDER BY noticed_ms DESC, id DESC LIMIT 1',
  before: 'SELECT * FROM signature_updates WHERE noticed_ms < ? ORDER BY noticed_ms DESC, id DESC LIMIT 1',
  // The newest first, then turned oldest first: the cap keeps the most recent.
  within: 'SELECT * FROM signature_updates WHERE noticed_ms >= ? AND noticed_ms < ? ORDER BY noticed_ms DESC, id DESC LIMIT ?',
} as const;

interface Row {
  noticed_ms: number;
  engine: string;
  engine_version: string | null;
  identity: string;
  signature_version: number | null;
  databases: string | null;
  signatures_date: string | null;
}

export const fromRow = (row: Row): SignaturesNoticed => ({
  noticedMs: Number(row.noticed_ms),
  engine: row.engine,
  engineVersion: row.engine_version,
  identity: row.identity,
  signatureVersion: row.signature_version === null ? null : Number(row.signature_version),
  databases: row.databases,
  signatureDate: row.signatures_date,
});

/** As the overview shows one. */
export const asUpdate = (noticed: SignaturesNoticed): SignatureUpdate => ({
  at: new Date(noticed.noticedMs).toISOString(),
  engineVersion: noticed.engineVersion,
  signatureVersion: noticed.signatureVersion,
  signatureDate: noticed.signatureDate,
});

export function signatureUpdatesOn(h: HistoryDb): SignatureUpdates {
  const latest = (): SignaturesNoticed | null => {
    const row = h.prepare(SIGNATURE_UPDATES_SQL.latest).get() as Row | undefined;
    return row ? fromRow(row) : null;
  };
  return {
    latest,
    notice: (signatures) =>
      h.transaction(() => {
        if (latest()?.identity === signatures.identity) return false;
        h.prepare(
          'INSERT INTO signature_updates (noticed_ms, engine, engine_version, identity, signature_version, databases, signatures_date) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(signatures.noticedMs, signatures.engine, signatures.engineVersion, signatures.identity, signatures.signatureVersion, signatures.databases, signatures.signatureDate);
        return true;
      }),
  };
}

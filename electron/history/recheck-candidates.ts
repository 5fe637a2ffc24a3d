// The recheck's memory (migration 15, recheck-migration.ts): files judged clean on the local
// engine path with their identity then, and the selection of those to judge again after a
// signature update. On the history's own connection, its writes in the history's transactions
// (a second connection would wait, blocking, for the grouped commit that stays open across turns).
import type { DatabaseSync } from 'node:sqlite';
import { fromStoredText, toStoredText } from '../sqlite/stored-text.ts';
import type { FileIdentity } from './unchanged-files.ts';

/** A file judged clean, as the recheck remembers it. */
export interface SeenFile {
  file: FileIdentity;
  path: string;
  /** signatureKey() of the engine that judged it (shared/engine/verdict-reuse.ts). */
  signatureKey: string;
  recordId: string;
  /** How it arrived: the scan's origin, or `job` for a scan job's file. */
  origin: string;
  /** When it arrived (ms since the epoch); the earliest sighting of the same file is kept. */
  firstSeenMs: number;
}

export interface RecheckLink {
  recordId: string;
  recheckedFromId: string;
  firstSeenMs: number;
}

export interface RecheckStore {
  /** Writes these sightings in one transaction; `keepFirstSeen`: a recheck's own scans keep the first sighting as it was. */
  remember(files: readonly SeenFile[]): void;
  /** Files first seen before `ms` leave it: outside the window they are never selected (retention of this table). */
  forgetFirstSeenBefore(ms: number): void;
  /** A file no longer judged clean (a threat, scanned in part…): it leaves the selection. */
  forget(file: Pick<FileIdentity, 'dev' | 'ino'>): void;
  /**
   * Files first seen at or after `sinceMs` and judged under another signature key than `key`,
   * in (first_seen_ms, dev, ino) order after `after`, at most `limit`: the recheck's selection,
   * read through the first_seen_ms index in batches.
   */
  candidates(sinceMs: number, key: string, limit: number, after?: { firstSeenMs: number; dev: string; ino: string } | null): SeenFile[];
  /** How many files the selection holds now. */
  count(sinceMs: number, key: string): number;
  /** The entry for this device and inode, or null. */
  find(dev: string, ino: string): SeenFile | null;
  /** The entries of these files, in their order, in one snapshot (a lookup's own read lock costs more than the lookup). */
  findMany(files: ReadonlyArray<Pick<FileIdentity, 'dev' | 'ino'>>): Array<SeenFile | null>;
  link(link: RecheckLink): void;
  /** The scan a rechecked record replaces, or null. */
  linkOf(recordId: string): RecheckLink | null;
}

/** BEGIN IMMEDIATE … COMMIT on the history's connection (history-db.ts HistoryDb.transaction). */
export type Write = <T>(fn: () => T) => T;

interface Row {
  dev: string;
  ino: string;
  path: string;
  size: number;
  mtime_ns: string;
  ctime_ns: string;
  signature_key: string;
  record_id: string;
  origin: string;
  first_seen_ms: number;
}

const COLUMNS = 'dev, ino, path, size, mtime_ns, ctime_ns, signature_key, record_id, origin, first_seen_ms';

/** The store on the history's connection (migration 15 or later); `read`: one snapshot for several reads (history-db.ts readTransaction). */
export function recheckStoreOn(db: DatabaseSync, write: Write, read: Write = (fn) => fn()): RecheckStore {
  const upsert = db.prepare(
    `INSERT INTO recheck_files (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (dev, ino) DO UPDATE SET path = excluded.path, size = excluded.size, mtime_ns = excluded.mtime_ns,
       ctime_ns = excluded.ctime_ns, signature_key = excluded.signature_key, record_id = excluded.record_id,
       origin = CASE WHEN excluded.first_seen_ms < recheck_files.first_seen_ms THEN excluded.origin ELSE recheck_files.origin END,
       first_seen_ms = min(recheck_files.first_seen_ms, excluded.first_seen_ms)`,
  );
  const remove = db.prepare('DELETE FROM recheck_files WHERE dev = ? AND ino = ?');
  const removeOlder = db.prepare('DELETE FROM recheck_files WHERE first_seen_ms < ?');
  const select = db.prepare(
    `SELECT ${COLUMNS} FROM recheck_files WHERE first_seen_ms >= ? AND signature_key <> ? AND (first_seen_ms, dev, ino) > (?, ?, ?)
     ORDER BY first_seen_ms, dev, ino LIMIT ?`,
  );
  const counter = db.prepare('SELECT count(*) AS n FROM recheck_files WHERE first_seen_ms >= ? AND signature_key <> ?');
  const one = db.prepare(`SELECT ${COLUMNS} FROM recheck_files WHERE dev = ? AND ino = ?`);
  const addLink = db.prepare('INSERT OR REPLACE INTO recheck_links (record_id, rechecked_from_id, first_seen_ms) VALUES (?, ?, ?)');
  const getLink = db.prepare('SELECT record_id, rechecked_from_id, first_seen_ms FROM recheck_links WHERE record_id = ?');
  const find = (dev: string, ino: string): SeenFile | null => {
    const row = one.get(dev, ino) as Row | undefined;
    return row ? seenOf(row) : null;
  };
  return {
    remember(files) {
      if (files.length === 0) return;
      write(() => {
        for (const seen of files) {
          const { file } = seen;
          upsert.run(file.dev, file.ino, toStoredText(seen.path), file.size, file.mtimeNs, file.ctimeNs, seen.signatureKey, seen.recordId, seen.origin, Math.floor(seen.firstSeenMs));
        }
      });
    },
    forget: (file) => void write(() => remove.run(file.dev, file.ino)),
    forgetFirstSeenBefore: (ms) => void write(() => removeOlder.run(Math.floor(ms))),
    candidates(sinceMs, key, limit, after = null) {
      const rows = select.all(Math.floor(sinceMs), key, after?.firstSeenMs ?? -1, after?.dev ?? '', after?.ino ?? '', limit) as unknown as Row[];
      return rows.map(seenOf);
    },
    count: (sinceMs, key) => Number((counter.get(Math.floor(sinceMs), key) as { n: number }).n),
    find,
    findMany: (files) => read(() => files.map(({ dev, ino }) => find(dev, ino))),
    link: (link) => void write(() => addLink.run(link.recordId, link.recheckedFromId, Math.floor(link.firstSeenMs))),
    linkOf(recordId) {
      const row = getLink.get(recordId) as { record_id: string; rechecked_from_id: string; first_seen_ms: number } | undefined;
      return row ? { recordId: row.record_id, recheckedFromId: row.rechecked_from_id, firstSeenMs: Number(row.first_seen_ms) } : null;
    },
  };
}

function seenOf(row: Row): SeenFile {
  return {
    file: { dev: row.dev, ino: row.ino, size: Number(row.size), mtimeNs: row.mtime_ns, ctimeNs: row.ctime_ns },
    path: fromStoredText(row.path),
    signatureKey: row.signature_key,
    recordId: row.record_id,
    origin: row.origin,
    firstSeenMs: Number(row.first_seen_ms),
  };
}

/** A quarantine entry judged again: whether the signatures of `signatureKey` still detect it. */
export interface QuarantineJudgement {
  entryId: string;
  signatureKey: string;
  detected: boolean;
  names: string[];
  checkedMs: number;
}

export interface QuarantineJudgements {
  save(judgement: QuarantineJudgement): void;
  get(entryId: string): QuarantineJudgement | null;
  /** Entries judged not detected (newest first); the caller keeps those still in quarantine. */
  notDetected(): QuarantineJudgement[];
}

interface JudgementRow {
  entry_id: string;
  signature_key: string;
  detected: number;
  names_json: string;
  checked_ms: number;
}

export function quarantineJudgementsOn(db: DatabaseSync, write: Write): QuarantineJudgements {
  const put = db.prepare('INSERT OR REPLACE INTO recheck_quarantine (entry_id, signature_key, detected, names_json, checked_ms) VALUES (?, ?, ?, ?, ?)');
  const one = db.prepare('SELECT * FROM recheck_quarantine WHERE entry_id = ?');
  const missed = db.prepare('SELECT * FROM recheck_quarantine WHERE detected = 0 ORDER BY checked_ms DESC LIMIT 1000');
  const judgementOf = (row: JudgementRow): QuarantineJudgement => ({
    entryId: row.entry_id,
    signatureKey: row.signature_key,
    detected: Number(row.detected) === 1,
    names: JSON.parse(row.names_json) as string[],
    checkedMs: Number(row.checked_ms),
  });
  return {
    save: (j) => void write(() => put.run(j.entryId, j.signatureKey, j.detected ? 1 : 0, JSON.stringify(j.names), Math.floor(j.checkedMs))),
    get(entryId) {
      const row = one.get(entryId) as JudgementRow | undefined;
      return row ? judgementOf(row) : null;
    },
    notDetected: () => (missed.all() as unknown as JudgementRow[]).map(judgementOf),
  };
}

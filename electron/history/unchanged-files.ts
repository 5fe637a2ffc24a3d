// The unchanged-file skip's memory (migration 13): each file last judged clean, by its device
// and inode, with the identity it had then and the engine and signatures that judged it.
import { z } from 'zod';
import { engineIdentitySchema } from '../../shared/service-contract/scan.ts';
import type { HistoryDb } from './history-db.ts';

/** What stat tells about a file, in full (`fs.stat(path, { bigint: true })`), as decimal text. */
export interface FileIdentity {
  dev: string;
  ino: string;
  size: number;
  mtimeNs: string;
  ctimeNs: string;
}

const reusedVerdictSchema = z.object({
  sha256: z.string().nullable(),
  md5: z.string().nullable(),
  sha1: z.string().nullable(),
  detailed: z.string().nullable(),
  fileType: z.string().nullable(),
  engine: engineIdentitySchema.nullable(),
});
/** What a row that reuses the entry is given. */
export type ReusedVerdict = z.infer<typeof reusedVerdictSchema>;

export interface UnchangedEntry {
  file: FileIdentity;
  /** signatureKey() of the engine that judged it (shared/engine/verdict-reuse.ts). */
  signatureKey: string;
  /** The row whose scan read the file. */
  recordId: string;
  verdict: ReusedVerdict;
  recordedMs: number;
}

interface EntryRow {
  size: number;
  mtime_ns: string;
  ctime_ns: string;
  signature_key: string;
  record_id: string;
  verdict_json: string;
  recorded_ms: number;
}

/** The entry for this device and inode, or null (none, or one that cannot be read). */
export function findUnchanged(h: HistoryDb, dev: string, ino: string): UnchangedEntry | null {
  const row = h.prepare('SELECT size, mtime_ns, ctime_ns, signature_key, record_id, verdict_json, recorded_ms FROM unchanged_files WHERE dev = ? AND ino = ?').get(dev, ino) as EntryRow | undefined;
  if (!row) return null;
  let verdict: ReusedVerdict;
  try {
    const parsed = reusedVerdictSchema.safeParse(JSON.parse(row.verdict_json));
    if (!parsed.success) return null;
    verdict = parsed.data;
  } catch {
    return null;
  }
  return {
    file: { dev, ino, size: Number(row.size), mtimeNs: row.mtime_ns, ctimeNs: row.ctime_ns },
    signatureKey: row.signature_key,
    recordId: row.record_id,
    verdict,
    recordedMs: Number(row.recorded_ms),
  };
}

/** Writes (or replaces) the file's entry; the caller decides when it commits (with the verdict's row). */
export function rememberUnchanged(h: HistoryDb, entry: UnchangedEntry): void {
  const { file } = entry;
  h.prepare(
    `INSERT OR REPLACE INTO unchanged_files (dev, ino, size, mtime_ns, ctime_ns, signature_key, record_id, verdict_json, recorded_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(file.dev, file.ino, file.size, file.mtimeNs, file.ctimeNs, entry.signatureKey, entry.recordId, JSON.stringify(entry.verdict), entry.recordedMs);
}

/** "Clear history": the rows the entries name are gone, so are the entries. */
export function forgetUnchanged(h: HistoryDb): void {
  h.prepare('DELETE FROM unchanged_files').run();
}

/** Retention: entries made before `ms` go with the rows of that age (a file deleted since would keep its entry forever). */
export function forgetUnchangedBefore(h: HistoryDb, ms: number): void {
  h.prepare('DELETE FROM unchanged_files WHERE recorded_ms < ?').run(ms);
}

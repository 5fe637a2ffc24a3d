// The unchanged-file skip's memory (migrations 13 and 24): each file last judged clean, by its
// device and inode, with the identity it had then, the scan that read it and its digests; what
// many files share (the engine and signatures that judged them, the detail, the file type) is a
// kind, read and parsed once per connection and kind.
import { z } from 'zod';
import { engineIdentitySchema } from '../../shared/service-contract/scan.ts';
import { blobOf, hexOf, lowerHex } from './digest-blobs.ts';
import type { HistoryDb } from './history-db.ts';

/** What stat tells about a file, in full (`fs.stat(path, { bigint: true })`), as decimal text. */
export interface FileIdentity {
  dev: string;
  ino: string;
  size: number;
  mtimeNs: string;
  ctimeNs: string;
}

const kindSchema = z.object({
  detailed: z.string().nullable(),
  fileType: z.string().nullable(),
  engine: engineIdentitySchema.nullable(),
});
type Kind = z.infer<typeof kindSchema>;

/** What a row that reuses the entry is given. */
export interface ReusedVerdict extends Kind {
  sha256: string | null;
  md5: string | null;
  sha1: string | null;
}

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
  kind_id: number;
  record_id: string;
  sha256: Uint8Array | null;
  md5: Uint8Array | null;
  sha1: Uint8Array | null;
  recorded_ms: number;
}

/** A connection's kinds: by id as read (null: none, or one that cannot be read), and ids by their text. */
interface KnownKinds {
  byId: Map<number, { signatureKey: string; kind: Kind } | null>;
  idOf: Map<string, number>;
}
const known = new WeakMap<HistoryDb, KnownKinds>();
function kindsOf(h: HistoryDb): KnownKinds {
  let kinds = known.get(h);
  if (!kinds) known.set(h, (kinds = { byId: new Map(), idOf: new Map() }));
  return kinds;
}

/** The entry for this device and inode, or null (none, or one that cannot be read). */
export function findUnchanged(h: HistoryDb, dev: string, ino: string): UnchangedEntry | null {
  const row = h.prepare('SELECT size, mtime_ns, ctime_ns, kind_id, record_id, sha256, md5, sha1, recorded_ms FROM unchanged_files WHERE dev = ? AND ino = ?').get(dev, ino) as EntryRow | undefined;
  if (!row) return null;
  const kind = kindById(h, Number(row.kind_id));
  if (!kind) return null;
  return {
    file: { dev, ino, size: Number(row.size), mtimeNs: row.mtime_ns, ctimeNs: row.ctime_ns },
    signatureKey: kind.signatureKey,
    recordId: row.record_id,
    verdict: { ...kind.kind, sha256: hexOf(row.sha256), md5: hexOf(row.md5), sha1: hexOf(row.sha1) },
    recordedMs: Number(row.recorded_ms),
  };
}

function kindById(h: HistoryDb, id: number): { signatureKey: string; kind: Kind } | null {
  const { byId } = kindsOf(h);
  if (byId.has(id)) return byId.get(id)!;
  const row = h.prepare('SELECT signature_key, verdict_json FROM unchanged_kinds WHERE id = ?').get(id) as { signature_key: string; verdict_json: string } | undefined;
  let found: { signatureKey: string; kind: Kind } | null = null;
  try {
    const parsed = row ? kindSchema.safeParse(JSON.parse(row.verdict_json)) : null;
    if (row && parsed?.success) found = { signatureKey: row.signature_key, kind: parsed.data };
  } catch {
    // Not JSON: the entries of this kind are not found.
  }
  // Only a kind read is kept: one missing now may be added later under this id (never another kind: AUTOINCREMENT).
  if (row) byId.set(id, found);
  return found;
}

const HEX = { sha256: 64, md5: 32, sha1: 40 } as const;

/**
 * Writes (or replaces) the file's entry; the caller decides when it commits (with the verdict's row).
 * A verdict whose digests are not lowercase hex (never one of a local scan) makes no entry.
 */
export function rememberUnchanged(h: HistoryDb, entry: UnchangedEntry): void {
  const { file, verdict } = entry;
  if (!(Object.keys(HEX) as Array<keyof typeof HEX>).every((digest) => lowerHex(verdict[digest], HEX[digest]))) return;
  h.prepare(
    `INSERT OR REPLACE INTO unchanged_files (dev, ino, size, mtime_ns, ctime_ns, kind_id, record_id, sha256, md5, sha1, recorded_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    file.dev, file.ino, file.size, file.mtimeNs, file.ctimeNs, kindId(h, entry), entry.recordId,
    blobOf(verdict.sha256), blobOf(verdict.md5), blobOf(verdict.sha1), entry.recordedMs,
  );
}

function kindId(h: HistoryDb, { signatureKey, verdict }: UnchangedEntry): number {
  const { idOf } = kindsOf(h);
  const json = JSON.stringify({ detailed: verdict.detailed, fileType: verdict.fileType, engine: verdict.engine });
  const text = `${signatureKey}\n${json}`;
  let id = idOf.get(text);
  if (id === undefined) {
    h.prepare('INSERT OR IGNORE INTO unchanged_kinds (signature_key, verdict_json) VALUES (?, ?)').run(signatureKey, json);
    id = Number((h.prepare('SELECT id FROM unchanged_kinds WHERE signature_key = ? AND verdict_json = ?').get(signatureKey, json) as { id: number }).id);
    idOf.set(text, id);
  }
  return id;
}

/** "Clear history": the rows the entries name are gone, so are the entries (and their kinds). */
export function forgetUnchanged(h: HistoryDb): void {
  h.prepare('DELETE FROM unchanged_files').run();
  forgetUnusedKinds(h);
}

/** Retention: entries made before `ms` go with the rows of that age (a file deleted since would keep its entry forever). */
export function forgetUnchangedBefore(h: HistoryDb, ms: number): void {
  h.prepare('DELETE FROM unchanged_files WHERE recorded_ms < ?').run(ms);
  forgetUnusedKinds(h);
}

function forgetUnusedKinds(h: HistoryDb): void {
  h.prepare('DELETE FROM unchanged_kinds WHERE id NOT IN (SELECT kind_id FROM unchanged_files)').run();
  // This connection's ids of kinds gone would name no kind: ask again.
  kindsOf(h).idOf.clear();
}

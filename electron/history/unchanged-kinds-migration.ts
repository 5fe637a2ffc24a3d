// Migration 24: the unchanged-file skip's memory, narrow. Each entry kept its verdict as JSON: the
// engine identity and the 81-character signature key, repeated for every file (about 640 bytes an
// entry), so a 20,000-file rescan's lookups missed the CLI's 4 MiB page cache and parsed JSON with
// zod for every file. What files share (signatures, engine, detail, file type) is now a kind, as in
// a job's compact store (job_file_kinds); an entry keeps its identity, kind, scan and digests.
import type { Migration } from './migrations.ts';

// Of an old entry (alias o): a field of its verdict, a digest as a BLOB, its kind as JSON (the engine an object, or null).
const field = (name: string) => `json_extract(o.verdict_json, '$.${name}')`;
const digest = (name: string) => `unhex(${field(name)})`;
// `->` gives the engine as JSON whatever it holds (json_extract gives a string's bare text, which json() refuses:
// one odd entry would stop the migration, and the history with it); a kind zod refuses is simply never found.
const KIND_JSON = `json_object('detailed', ${field('detailed')}, 'fileType', ${field('fileType')}, 'engine', json(coalesce(o.verdict_json -> '$.engine', 'null')))`;

export const UNCHANGED_KINDS: Migration = {
  version: 24,
  description: "the unchanged-file skip's memory keeps what files share (signatures, engine, detail, file type) once, as kinds",
  up(db) {
    // AUTOINCREMENT: a kind's id is never given to another kind, so an id a connection has cached
    // names the same kind for as long as it exists (an entry naming a pruned kind is not found).
    // sha256, md5, sha1: lowercase hex as BLOBs (unhex); a digest that is not is dropped with its entry.
    // No temporary copy of the old entries (temp_store is memory: a large history's would be tens of MB).
    db.exec(`
      CREATE TABLE unchanged_kinds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        signature_key TEXT NOT NULL,
        verdict_json TEXT NOT NULL,
        UNIQUE (signature_key, verdict_json)
      );
      CREATE TABLE unchanged_entries (
        dev TEXT NOT NULL,
        ino TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns TEXT NOT NULL,
        ctime_ns TEXT NOT NULL,
        kind_id INTEGER NOT NULL,
        record_id TEXT NOT NULL,
        sha256 BLOB,
        md5 BLOB,
        sha1 BLOB,
        recorded_ms INTEGER NOT NULL,
        PRIMARY KEY (dev, ino)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO unchanged_kinds (signature_key, verdict_json)
        SELECT DISTINCT o.signature_key, ${KIND_JSON} FROM unchanged_files AS o WHERE json_valid(o.verdict_json);
      INSERT INTO unchanged_entries
        SELECT o.dev, o.ino, o.size, o.mtime_ns, o.ctime_ns,
          (SELECT k.id FROM unchanged_kinds AS k WHERE k.signature_key = o.signature_key AND k.verdict_json = ${KIND_JSON}),
          o.record_id, ${digest('sha256')}, ${digest('md5')}, ${digest('sha1')}, o.recorded_ms
        FROM unchanged_files AS o
        WHERE json_valid(o.verdict_json) AND ${(['sha256', 'md5', 'sha1'] as const).map((name) => `(${field(name)} IS NULL OR ${digest(name)} IS NOT NULL)`).join(' AND ')};
      DROP TABLE unchanged_files;
      ALTER TABLE unchanged_entries RENAME TO unchanged_files;
      CREATE INDEX unchanged_files_by_record ON unchanged_files (record_id);
    `);
  },
};

// Migration 24: the unchanged-file skip's memory, narrow. Each entry kept its verdict as JSON: the
// engine identity and the 81-character signature key, repeated for every file (about 640 bytes an
// entry), so a 20,000-file rescan's lookups missed the CLI's 4 MiB page cache and parsed JSON with
// zod for every file. What files share (signatures, engine, detail, file type) is now a kind, as in
// a job's compact store (job_file_kinds); an entry keeps its identity, kind, scan and digests.
import type { Migration } from './migrations.ts';

export const UNCHANGED_KINDS: Migration = {
  version: 24,
  description: "the unchanged-file skip's memory keeps what files share (signatures, engine, detail, file type) once, as kinds",
  up(db) {
    // AUTOINCREMENT: a kind's id is never given to another kind, so an id a connection has cached
    // names the same kind for as long as it exists (an entry naming a pruned kind is not found).
    // sha256, md5, sha1: lowercase hex as BLOBs (unhex); a digest that is not is dropped with its entry.
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
      CREATE TEMP TABLE old_verdicts AS
        SELECT dev, ino, size, mtime_ns, ctime_ns, signature_key, record_id, recorded_ms,
          json_object('detailed', json_extract(verdict_json, '$.detailed'), 'fileType', json_extract(verdict_json, '$.fileType'),
            'engine', json(coalesce(json_extract(verdict_json, '$.engine'), 'null'))) AS kind_json,
          json_extract(verdict_json, '$.sha256') AS sha256, json_extract(verdict_json, '$.md5') AS md5, json_extract(verdict_json, '$.sha1') AS sha1
        FROM unchanged_files WHERE json_valid(verdict_json);
      INSERT OR IGNORE INTO unchanged_kinds (signature_key, verdict_json) SELECT DISTINCT signature_key, kind_json FROM old_verdicts;
      INSERT INTO unchanged_entries
        SELECT o.dev, o.ino, o.size, o.mtime_ns, o.ctime_ns, k.id, o.record_id, unhex(o.sha256), unhex(o.md5), unhex(o.sha1), o.recorded_ms
        FROM old_verdicts AS o JOIN unchanged_kinds AS k ON k.signature_key = o.signature_key AND k.verdict_json = o.kind_json
        WHERE (o.sha256 IS NULL OR unhex(o.sha256) IS NOT NULL) AND (o.md5 IS NULL OR unhex(o.md5) IS NOT NULL) AND (o.sha1 IS NULL OR unhex(o.sha1) IS NOT NULL);
      DROP TABLE old_verdicts;
      DROP TABLE unchanged_files;
      ALTER TABLE unchanged_entries RENAME TO unchanged_files;
      CREATE INDEX unchanged_files_by_record ON unchanged_files (record_id);
    `);
  },
};

// The quarantine index file (quarantine/quarantine-store.ts): a damaged,
// truncated, foreign or newer file either opens (a damaged one set aside, with
// a warning) or is refused with `quarantine_newer_schema`; an opened store
// answers the reads recovery makes. Rows someone edited to hold other types
// must come back as entries of the documented shape.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { openQuarantineStore, type StoredEntry } from '../../../electron/quarantine/quarantine-store.ts';
import { quarantineEntrySchema } from '../../../shared/quarantine/entry.ts';
import { expectThat, FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { anyJsonValue } from './support/strings.ts';

type Damage =
  | { kind: 'bytes'; flips: Array<{ at: number; byte: number }>; truncateAt: number | null }
  | { kind: 'random'; bytes: number[] }
  | { kind: 'version'; userVersion: number }
  | { kind: 'row'; column: string; value: unknown };

const COLUMNS = ['size', 'mode', 'mtime_ms', 'state', 'action', 'file_name', 'original_path', 'quarantined_at', 'sha256', 'record_id'];

const damage: fc.Arbitrary<Damage> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('bytes' as const),
      flips: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), byte: fc.integer({ min: 0, max: 255 }) }), { maxLength: 6 }),
      truncateAt: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('random' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 200 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('version' as const), userVersion: fc.integer({ min: -5, max: 5 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('row' as const), column: fc.constantFrom(...COLUMNS), value: anyJsonValue }) },
);

const entry = (n: number): StoredEntry => ({
  id: `e${n}`,
  storedName: `${String(n).padStart(32, '0')}.q`,
  originalPath: `/home/user/file-${n}.exe`,
  fileName: `file-${n}.exe`,
  size: 1000 + n,
  mode: 0o644,
  mtimeMs: 1_700_000_000_000 + n,
  sha256: 'ab'.repeat(32),
  recordId: `r${n}`,
  state: n % 2 === 0 ? 'quarantined' : 'restored',
  action: null,
  targetPath: null,
  quarantinedAt: `2026-01-0${1 + (n % 9)}T00:00:00.000Z`,
  resolvedAt: null,
  restoredTo: null,
});

/** An SQLite value for a JSON value (objects and arrays as their JSON text). */
const sqlValue = (value: unknown): string | number | null =>
  value === null || typeof value === 'number' || typeof value === 'string' ? value : typeof value === 'boolean' ? Number(value) : JSON.stringify(value);

export const quarantineStoreTarget: FuzzTarget<Damage> = {
  name: 'quarantine-store',
  about: 'openQuarantineStore on a damaged index: opened (damage set aside) or quarantine_newer_schema; reads give entries of the documented shape',
  smoke: { runs: 60 },
  async: false,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-fuzz-quarantine-'));
    const pristine = join(dir, 'pristine.sqlite');
    const made = openQuarantineStore(pristine);
    for (let n = 0; n < 40; n++) made.insert(entry(n));
    made.allow({ sha256: 'cd'.repeat(32), fileName: 'ok.exe', allowedAt: '2026-01-01T00:00:00.000Z', entryId: null, recordId: null });
    made.close();
    // One self-contained file (the WAL checkpointed into it).
    const db = new DatabaseSync(pristine);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE');
    db.close();
    const bytes = readFileSync(pristine);
    let serial = 0;

    return {
      arbitrary: damage,
      check(input) {
        const file = join(dir, `q-${serial++ % 4}`, 'quarantine.sqlite');
        rmSync(join(file, '..'), { recursive: true, force: true });
        mkdirSync(join(file, '..'));
        if (input.kind === 'bytes') {
          const copy = Buffer.from(bytes);
          for (const flip of input.flips) copy[Math.floor(flip.at * copy.length)] = flip.byte;
          writeFileSync(file, input.truncateAt === null ? copy : copy.subarray(0, Math.floor(input.truncateAt * copy.length)));
        } else if (input.kind === 'random') {
          writeFileSync(file, Buffer.from(input.bytes));
        } else {
          copyFileSync(pristine, file);
          const db = new DatabaseSync(file);
          if (input.kind === 'version') db.exec(`PRAGMA user_version = ${input.userVersion}`);
          else {
            try {
              db.prepare(`UPDATE entries SET ${input.column} = ? WHERE id = 'e3'`).run(sqlValue(input.value));
            } catch {
              // The schema refuses this value (NOT NULL): no file can hold it.
            }
          }
          db.close();
        }
        let store: ReturnType<typeof openQuarantineStore>;
        try {
          store = openQuarantineStore(file);
        } catch (error) {
          if ((error as { code?: unknown }).code === 'quarantine_newer_schema') return;
          throw new FuzzFinding(`open threw: ${String(error)}`, { cause: error });
        }
        try {
          const entries = [...store.list(null), ...store.list(['quarantining', 'restoring', 'deleting'])];
          store.allowed();
          store.byStoredName(entry(3).storedName);
          for (const found of entries) {
            const shape = quarantineEntrySchema.safeParse(found);
            expectThat(shape.success, () => `entry ${found.id} of another shape: ${shape.error?.issues[0]?.message ?? ''} (${JSON.stringify(found).slice(0, 200)})`);
          }
        } catch (error) {
          if (error instanceof FuzzFinding) throw error;
          throw new FuzzFinding(`a read of an opened store threw: ${String(error)}`, { cause: error });
        } finally {
          store.close();
        }
      },
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

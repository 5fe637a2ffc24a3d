// The quarantine index's rows (quarantine/quarantine-store.ts rowToEntry), in
// memory: SQLite keeps any type in any column, so a hand-edited or damaged row
// may hold anything; every list and recovery read turns rows into entries
// through this one function, which must give the documented shape and never
// throw. The file itself (damaged bytes, versions) is the quarantine-store target.
import fc from 'fast-check';
import { rowToEntry } from '../../../electron/quarantine/quarantine-store.ts';
import { quarantineEntrySchema } from '../../../shared/quarantine/entry.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { hostileString } from './support/strings.ts';

const FIELDS = ['id', 'storedName', 'originalPath', 'fileName', 'size', 'mode', 'mtimeMs', 'sha256', 'recordId', 'state', 'action', 'targetPath', 'quarantinedAt', 'resolvedAt', 'restoredTo'] as const;

/** A column's value, JSON-serialisable so a finding can be kept: integers and reals as text (bigint, Infinity). */
type Value = null | { int: string } | { real: string } | { text: string } | { blob: number[] };
type Row = Partial<Record<(typeof FIELDS)[number], Value>>;

/** What node:sqlite hands out for a column (read with setReadBigInts): null, an integer as bigint, a real, text, or a blob. */
const sqliteValue: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(null),
  fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0n, -1n, 2n ** 53n, 2n ** 53n + 1n, 420n)).map((n) => ({ int: String(n) })),
  fc.double({ noNaN: true }).map((n) => ({ real: String(n) })),
  fc.oneof(fc.constantFrom('quarantined', 'restored', 'deleted', 'lost', 'quarantining', 'restoring', 'deleting', 'restore', 'allow', '2026-01-01T00:00:00.000Z'), hostileString()).map((text) => ({ text })),
  fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 16 }).map((blob) => ({ blob })),
);

const VALID: Row = {
  id: { text: 'e1' }, storedName: { text: `${'0'.repeat(32)}.q` }, originalPath: { text: '/home/user/a.exe' }, fileName: { text: 'a.exe' }, size: { int: '10' }, mode: { int: '420' },
  mtimeMs: { real: '1700000000000.5' }, sha256: { text: 'ab'.repeat(32) }, recordId: { text: 'r1' }, state: { text: 'quarantined' }, action: null, targetPath: null,
  quarantinedAt: { text: '2026-01-01T00:00:00.000Z' }, resolvedAt: null, restoredTo: null,
};

/** A stored row: a valid one with some columns replaced, some missing. */
const row: fc.Arbitrary<Row> = fc
  .tuple(fc.dictionary(fc.constantFrom(...FIELDS), sqliteValue, { maxKeys: 6 }), fc.subarray([...FIELDS], { maxLength: 3 }))
  .map(([replaced, missing]) => {
    const out: Row = { ...VALID, ...replaced };
    for (const field of missing) delete out[field];
    return out;
  });

const decode = (value: Value | undefined): unknown =>
  value === undefined || value === null ? value : 'int' in value ? BigInt(value.int) : 'real' in value ? Number(value.real) : 'text' in value ? value.text : new Uint8Array(value.blob);

export const quarantineRowTarget: FuzzTarget<Row> = {
  name: 'quarantine-row',
  about: 'rowToEntry (every read of the quarantine index) on rows holding any SQLite value in any column: an entry of the documented shape, never a throw',
  smoke: { runs: 2_000 },
  async: false,
  async open() {
    return {
      arbitrary: row,
      check(input) {
        const entry = rowToEntry(Object.fromEntries(Object.entries(input).map(([field, value]) => [field, decode(value)])));
        const shape = quarantineEntrySchema.safeParse(entry);
        expectThat(shape.success, () => `an entry of another shape: ${shape.error?.issues[0]?.path.join('.') ?? ''} ${shape.error?.issues[0]?.message ?? ''}`);
        expectThat(entry.action === null || entry.action === 'restore' || entry.action === 'allow', `action ${String(entry.action)}`);
        expectThat(entry.mtimeMs === null || Number.isFinite(entry.mtimeMs), `mtimeMs ${String(entry.mtimeMs)}`);
      },
      close: async () => {},
    };
  },
};

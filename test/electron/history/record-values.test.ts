// The INSERT's values (recordValues, one array per record) and the mapping of each field
// (fieldsToColumns, also used for patches) must store a record alike, column for column:
// generated records, every field set, null, or left out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldsToColumns, RECORD_COLUMNS, recordValues } from '../../../electron/history/row-mapping.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'ä', '\uFDD0', '\uD800', '/', ' '), maxLength: 6 });
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(fc.option(value, { nil: null }), { nil: undefined });
const engine = fc.record(
  {
    name: fc.constantFrom('clamav' as const, 'builtin' as const),
    version: fc.option(text, { nil: null }),
    signatures: fc.option(fc.record({ version: fc.nat(), date: text }), { nil: null }),
    signatureBasis: fc.constantFrom('databases' as const, 'version' as const),
    databases: text,
    detection: text,
    selfTest: fc.constant('failed' as const),
  },
  { requiredKeys: ['name', 'version', 'signatures'] },
);
const record = fc.record(
  {
    id: text, path: text, fileName: text, size: maybe(fc.nat()), md5: maybe(text), sha1: maybe(text), sha256: maybe(text),
    mode: maybe(fc.constantFrom('sync' as const, 'async' as const)), origin: text, backend: text, externalReferenceId: text,
    serviceScanId: maybe(text), status: text, pendingReason: maybe(text), safe: maybe(fc.boolean()), detailed: maybe(text),
    findings: fc.option(fc.array(fc.record({ name: text }), { maxLength: 2 }), { nil: undefined }), fileType: maybe(text),
    queuedAt: text, submittedAt: maybe(text), completedAt: maybe(text), durationMs: maybe(fc.nat()),
    error: maybe(fc.record({ code: text, message: text, params: fc.option(fc.dictionary(text, text, { maxKeys: 2 }), { nil: undefined }) })),
    reusedFromId: maybe(text), reuseKind: fc.option(fc.constantFrom('content' as const, 'unchanged' as const), { nil: undefined }),
    disposition: maybe(fc.constantFrom('quarantined' as const, 'notified' as const)), allowedBy: fc.option(fc.constantFrom('content' as const, 'name' as const), { nil: undefined }),
    quarantineId: maybe(text), engine: maybe(engine),
  },
  { requiredKeys: [] },
);

describe('recordValues', () => {
  it('gives each column the value fieldsToColumns maps its field to (null where it maps none)', () => {
    fc.assert(
      fc.property(record, (generated) => {
        const r = generated as unknown as ScanRecord;
        const columns = fieldsToColumns(r);
        expect(recordValues(r)).toEqual(RECORD_COLUMNS.map((column) => columns[column] ?? null));
      }),
      { numRuns: 500 },
    );
  });
});

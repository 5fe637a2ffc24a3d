// The stored form of text that may hold a file name: any JS string (lone surrogates, U+FDD0)
// goes through a real SQLite column and comes back the same, and distinct strings stay distinct.
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromStoredText, toStoredText } from '../../../electron/sqlite/stored-text.ts';

/** Strings of any code units, weighted toward the ones the stored form changes. */
const anyText = fc.string({ unit: fc.oneof(fc.constantFrom('\uDCFF', '\uDC80', '\uD800', '\uFDD0', '\uFFFD', 'D', 'C', 'F', '/'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 30 });

describe('stored text', () => {
  it('leaves well-formed text without U+FDD0 as it is', () => {
    expect(toStoredText('/home/me/report \u202E.pdf \u{1F600}')).toBe('/home/me/report \u202E.pdf \u{1F600}');
    expect(toStoredText('col\uDCFF.com')).toBe('col\uFDD0DCFF.com');
    expect(toStoredText('a\uFDD0b')).toBe('a\uFDD0\uFDD0b');
  });

  it('round-trips any string through a SQLite TEXT column, one to one', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (text TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?) RETURNING text');
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const stored = (insert.get(toStoredText(a)) as { text: string }).text;
        expect(fromStoredText(stored)).toBe(a);
        if (a !== b) expect(toStoredText(a)).not.toBe(toStoredText(b));
      }),
      { numRuns: 2_000 },
    );
    db.close();
  });

  it('reads whatever a damaged cell holds without throwing', () => {
    expect(fromStoredText('a\uFDD0')).toBe('a\uFDD0');
    expect(fromStoredText('a\uFDD0zz')).toBe('a\uFDD0zz');
    expect(fromStoredText('\uFDD0\uFDD0\uFDD0DCFF')).toBe('\uFDD0\uDCFF');
  });
});

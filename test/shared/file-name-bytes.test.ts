// A name's bytes as a string and back (PEP 383 "surrogateescape"): exact for every byte
// sequence, UTF-8 as usual where valid, and the same strings Python makes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFileName, encodeFileName, hasEscapedBytes, withVisibleBytes } from '../../shared/file-name-bytes.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Bytes a Linux file name may hold: anything but NUL and '/'. */
const nameBytes = fc.uint8Array({ minLength: 0, maxLength: 64 }).map((array) => array.filter((b) => b !== 0 && b !== 0x2f));
/** Mostly bytes that look like UTF-8 (lead and continuation bytes), where the edge cases are. */
const utf8ishBytes = fc
  .array(fc.oneof(fc.integer({ min: 0x80, max: 0xbf }), fc.integer({ min: 0xc0, max: 0xff }), fc.integer({ min: 0x30, max: 0x7a })), { maxLength: 32 })
  .map((values) => Uint8Array.from(values));

describe('decodeFileName / encodeFileName', () => {
  it('decodes as Python does with surrogateescape (overlongs, encoded surrogates, > U+10FFFF, truncated sequences, a BOM)', () => {
    // Expected strings from CPython's bytes.decode('utf-8', 'surrogateescape').
    const cases: Array<[Uint8Array, string]> = [
      [bytes(...ascii('col'), 0xff, ...ascii('.com')), 'col\uDCFF.com'],
      [bytes(0xc0, 0xaf), '\uDCC0\uDCAF'],
      [bytes(0xe0, 0x80, 0xaf), '\uDCE0\uDC80\uDCAF'],
      [bytes(0xed, 0xa0, 0x80), '\uDCED\uDCA0\uDC80'],
      [bytes(0xf4, 0x90, 0x80, 0x80), '\uDCF4\uDC90\uDC80\uDC80'],
      [bytes(0xf0, 0x9f, 0x98, 0x80), '\u{1F600}'],
      [bytes(0xe2, 0x82), '\uDCE2\uDC82'],
      [bytes(0xe2, 0x82, 0xac), '€'],
      [bytes(0xef, 0xbb, 0xbf, ...ascii('bom')), '\uFEFFbom'],
      [bytes(0xc3, 0xa9, 0x80), 'é\uDC80'],
      [bytes(0xf0, 0x90, 0x80), '\uDCF0\uDC90\uDC80'],
      [bytes(0xef, 0xbf, 0xbd), '\uFFFD'],
      [bytes(0xf4, 0x8f, 0xbf, 0xbf), '\u{10FFFF}'],
      [bytes(0xed, 0x9f, 0xbf), '\uD7FF'],
    ];
    for (const [input, expected] of cases) {
      expect(decodeFileName(input)).toBe(expected);
      expect([...encodeFileName(expected)]).toEqual([...input]);
    }
  });

  it('gives back the exact bytes of any name', () => {
    fc.assert(
      fc.property(fc.oneof(nameBytes, utf8ishBytes), (input) => {
        expect([...encodeFileName(decodeFileName(input))]).toEqual([...input]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('decodes valid UTF-8 exactly as a strict decoder does, and escapes only what such a decoder refuses', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.oneof(nameBytes, utf8ishBytes), (input) => {
        let valid: string | null;
        try {
          valid = strict.decode(input);
        } catch {
          valid = null;
        }
        const decoded = decodeFileName(input);
        if (valid === null) expect(hasEscapedBytes(decoded)).toBe(true);
        else expect(decoded).toBe(valid);
      }),
      { numRuns: 2_000 },
    );
  });

  it('encodes any well-formed string as UTF-8, which decodes to the same string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), (text) => {
        const encoded = encodeFileName(text);
        expect(Buffer.from(encoded).equals(Buffer.from(text, 'utf8'))).toBe(true);
        expect(decodeFileName(encoded)).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });

  it('encodes a lone surrogate that is no escape as U+FFFD, like Node', () => {
    expect(Buffer.from(encodeFileName('a\uD800b')).equals(Buffer.from('a\uD800b', 'utf8'))).toBe(true);
    expect(hasEscapedBytes('a\uD800b')).toBe(false);
  });
});

describe('hasEscapedBytes / withVisibleBytes', () => {
  it('finds only lone U+DC80..U+DCFF, never the low half of a pair', () => {
    expect(hasEscapedBytes('col\uDCFF.com')).toBe(true);
    expect(hasEscapedBytes('\uDC7F')).toBe(false);
    // U+10080 is D800 DC80: a pair, no escape.
    expect(hasEscapedBytes('\u{10080}')).toBe(false);
    expect(hasEscapedBytes('plain.txt')).toBe(false);
  });

  it('shows each escaped byte as ⟨0xHH⟩ and leaves everything else alone', () => {
    expect(withVisibleBytes('col\uDCFF.com')).toBe('col⟨0xFF⟩.com');
    expect(withVisibleBytes('\uDC80x\uDCE9\u202E')).toBe('⟨0x80⟩x⟨0xE9⟩\u202E');
    expect(withVisibleBytes('ok')).toBe('ok');
  });
});

// File names as raw bytes: what a Linux folder can hold and a path string can
// lose. Invalid UTF-8 (a lone 0xff, an overlong or surrogate encoding, a
// multi-byte character cut by the 255-byte limit), U+FFFD itself, NFC and NFD
// spellings, newlines and bidi controls, and plain random bytes.
import fc from 'fast-check';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Pieces a name is made of: each one a known way for a name to go wrong. */
const FRAGMENTS: Buffer[] = [
  bytes('\xff'),
  bytes('\xfe'),
  bytes('\xc3\x28'), // a lead byte without its continuation
  bytes('\xc0\xaf'), // an overlong '/'
  bytes('\xed\xa0\x80'), // a UTF-16 surrogate, encoded
  bytes('\xf4\x90\x80\x80'), // past U+10FFFF
  utf8('\ufffd'),
  utf8('\u00e9'), // é, NFC
  utf8('e\u0301'), // é, NFD
  utf8('\n'),
  utf8('\r'),
  utf8('\u202e'), // right-to-left override
  utf8('\u200f'),
  utf8('\u2066'),
  utf8('\x01'),
  utf8('\x7f'),
  utf8(' '),
  utf8('-'),
  utf8('%'),
  utf8('\\'),
  utf8('"'),
  utf8('\u{1f600}'),
  utf8('\u00a0'),
];

const WORDS = ['a', 'file', 'eicar.com', 'report.txt', 'exe.', '.hidden', 'Z', 'x y', '--json', 'iso'];

const fragment = fc.constantFrom(...FRAGMENTS);
const word = fc.constantFrom(...WORDS).map(utf8);

/** A name made of words and fragments. */
const composed = fc.array(fc.oneof({ weight: 2, arbitrary: fragment }, { weight: 3, arbitrary: word }), { minLength: 1, maxLength: 4 }).map((parts) => Buffer.concat(parts));

/** Unicode text (valid UTF-8), any characters. */
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(utf8);

const random = fc.uint8Array({ minLength: 1, maxLength: 24 }).map((array) => Buffer.from(array));

/** Exactly 255 bytes (NAME_MAX): a repeated piece, so a multi-byte character may be cut at the end. */
const longest = fc.oneof(fragment, word).map((piece) => Buffer.alloc(255, piece));

/** A name a folder can hold: no '/' or NUL, not '.' or '..', 255 bytes at most. */
function usableName(raw: Buffer): Buffer {
  const name = Buffer.from(raw.subarray(0, 255).map((byte) => (byte === 0x2f || byte === 0 ? 0x5f : byte)));
  if (name.length === 0) return Buffer.from('_');
  const text = name.toString('latin1');
  return text === '.' || text === '..' ? Buffer.from(`${text}_`) : name;
}

/** Any name: mostly composed ones, some plain text, random bytes and 255-byte ones. */
export const nameArb: fc.Arbitrary<Buffer> = fc
  .oneof({ weight: 5, arbitrary: composed }, { weight: 2, arbitrary: text }, { weight: 2, arbitrary: random }, { weight: 1, arbitrary: longest })
  .map(usableName);

/**
 * Two names for one stem that a lossy conversion makes equal: 0xff next to U+FFFD
 * (what decoding 0xff gives), or é in NFC next to é in NFD.
 */
export function twinNames(stem: Buffer, pair: 'fffd' | 'nfc'): [Buffer, Buffer] {
  const [left, right] = pair === 'fffd' ? [bytes('\xff'), utf8('\ufffd')] : [utf8('\u00e9'), utf8('e\u0301')];
  const base = stem.subarray(0, 240);
  return [usableName(Buffer.concat([base, left])), usableName(Buffer.concat([base, right]))];
}

// A file's name is bytes (on Linux any bytes but NUL and '/'), not necessarily UTF-8; Verdict
// keeps names as JS strings all the same, losslessly, as Python does (PEP 383 "surrogateescape"):
// valid UTF-8 decodes as usual, and each byte that is not part of a valid UTF-8 sequence becomes
// the lone surrogate U+DC00 + byte (U+DC80..U+DCFF). Valid UTF-8 never encodes a surrogate, so no
// name decodes like another, and encodeFileName gives the very bytes back. Pure: the Node side
// (electron/file-names/) turns such a string into a Buffer path for `fs`.

const ESCAPE_BASE = 0xdc00;
const FIRST_ESCAPE = 0xdc80;
const LAST_ESCAPE = 0xdcff;

/**
 * A lone U+DC80..U+DCFF. Unicode mode: a low surrogate that is half of a pair belongs to an
 * astral character and is never matched.
 */
const ESCAPED_BYTE = /[\uDC80-\uDCFF]/u;
const ESCAPED_BYTES = /[\uDC80-\uDCFF]/gu;

/** Whether the name holds a byte that is not UTF-8 (an escape): it must reach `fs` as bytes. */
export const hasEscapedBytes = (text: string): boolean => ESCAPED_BYTE.test(text);

/** The byte a code unit escapes, or null when it is no escape. */
export const escapedByte = (codeUnit: number): number | null => (codeUnit >= FIRST_ESCAPE && codeUnit <= LAST_ESCAPE ? codeUnit - ESCAPE_BASE : null);

/** `⟨0xFF⟩`: how an escaped byte is shown (display-name.ts) and sent where text must be valid. */
export const visibleByte = (byte: number): string => `⟨0x${byte.toString(16).toUpperCase().padStart(2, '0')}⟩`;

/** The text with each escaped byte as `⟨0xFF⟩` and nothing else changed: valid text for JSON, CSV and services. */
export const withVisibleBytes = (text: string): string =>
  hasEscapedBytes(text) ? text.replace(ESCAPED_BYTES, (escape) => visibleByte(escape.charCodeAt(0) - ESCAPE_BASE)) : text;

/** Whether bytes[i] is a continuation byte in [lo, hi] (the second byte of some sequences is narrower). */
const continues = (bytes: Uint8Array, i: number, lo = 0x80, hi = 0xbf): boolean => {
  const byte = bytes[i];
  return byte !== undefined && byte >= lo && byte <= hi;
};

/**
 * Length of the well-formed UTF-8 sequence at `i` (Unicode, Table 3-7), or 0 when the byte there
 * starts none: C0, C1 and F5..FF never occur; E0 and F0 exclude overlongs, ED the encoded
 * surrogates (ED A0..BF), F4 everything above U+10FFFF.
 */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return continues(bytes, i + 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const ok = continues(bytes, i + 1, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf) && continues(bytes, i + 2);
    return ok ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const ok = continues(bytes, i + 1, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf) && continues(bytes, i + 2) && continues(bytes, i + 3);
    return ok ? 4 : 0;
  }
  return 0;
}

function codePointAt(bytes: Uint8Array, i: number, length: number): number {
  const lead = bytes[i]!;
  if (length === 1) return lead;
  let codePoint = lead & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) codePoint = (codePoint << 6) | (bytes[i + k]! & 0x3f);
  return codePoint;
}

/** Code units turned into a string a slice at a time (fromCharCode's arguments are bounded). */
function unitsToString(units: number[]): string {
  let text = '';
  for (let i = 0; i < units.length; i += 4096) text += String.fromCharCode(...units.slice(i, i + 4096));
  return text;
}

/** A name's bytes as a string: UTF-8 where valid, each other byte as U+DC00 + byte. */
export function decodeFileName(bytes: Uint8Array): string {
  const units: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      units.push(ESCAPE_BASE + bytes[i]!);
      i += 1;
      continue;
    }
    const codePoint = codePointAt(bytes, i, length);
    if (codePoint > 0xffff) units.push(0xd800 + ((codePoint - 0x10000) >> 10), 0xdc00 + ((codePoint - 0x10000) & 0x3ff));
    else units.push(codePoint);
    i += length;
  }
  return unitsToString(units);
}

function pushUtf8(out: number[], codePoint: number): void {
  if (codePoint < 0x80) out.push(codePoint);
  else if (codePoint < 0x800) out.push(0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f));
  else if (codePoint < 0x10000) out.push(0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f));
  else out.push(0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f));
}

/**
 * The bytes a name string stands for: UTF-8, and each escape as its byte. Any other lone
 * surrogate (never made by decodeFileName) becomes U+FFFD, as Node's own conversion does.
 */
export function encodeFileName(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const byte = escapedByte(unit);
    if (byte !== null) {
      out.push(byte);
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      pushUtf8(out, text.codePointAt(i)!);
      i += 1;
    } else {
      pushUtf8(out, unit >= 0xd800 && unit <= 0xdfff ? 0xfffd : unit);
    }
  }
  return Uint8Array.from(out);
}

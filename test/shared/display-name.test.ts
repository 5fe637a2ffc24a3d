// The one way a file name or path is shown: hidden and reordering characters
// become a visible ⟨U+XXXX⟩; text of any script is left as it is.
import { describe, expect, it } from 'vitest';
import { displayName, visibleEscape } from '../../shared/display-name.ts';

describe('displayName', () => {
  it('shows a right-to-left override instead of letting it disguise the extension', () => {
    const shown = displayName('invoice\u202Efdp.exe');
    expect(shown).toBe('invoice⟨U+202E⟩fdp.exe');
    expect(shown.endsWith('.exe')).toBe(true);
  });

  it.each([
    ['U+202A–U+202E (embeddings and overrides)', [0x202a, 0x202b, 0x202c, 0x202d, 0x202e]],
    ['U+2066–U+2069 (isolates)', [0x2066, 0x2067, 0x2068, 0x2069]],
    ['U+200E/U+200F (marks)', [0x200e, 0x200f]],
    ['U+061C (Arabic letter mark)', [0x061c]],
  ])('escapes every bidi control: %s', (_, codePoints) => {
    for (const codePoint of codePoints) {
      const name = `a${String.fromCodePoint(codePoint)}b.txt`;
      expect(displayName(name)).toBe(`a${visibleEscape(codePoint)}b.txt`);
    }
  });

  it('escapes control characters (C0, DEL, C1) and line separators, so a name stays one line', () => {
    expect(displayName('a\nb\tc\rd\u0000e\u007Ff\u0085g\u009Bh.txt')).toBe('a⟨U+000A⟩b⟨U+0009⟩c⟨U+000D⟩d⟨U+0000⟩e⟨U+007F⟩f⟨U+0085⟩g⟨U+009B⟩h.txt');
    expect(displayName('one\u2028two\u2029.txt')).toBe('one⟨U+2028⟩two⟨U+2029⟩.txt');
  });

  it('escapes other invisible format characters: zero-width space, word joiner, BOM, soft hyphen, fillers, tags', () => {
    expect(displayName('pay\u200Bpal.exe')).toBe('pay⟨U+200B⟩pal.exe');
    expect(displayName('a\u2060b\uFEFFc\u00ADd')).toBe('a⟨U+2060⟩b⟨U+FEFF⟩c⟨U+00AD⟩d');
    expect(displayName('\u3164.exe')).toBe('⟨U+3164⟩.exe');
    expect(displayName('x\u{E0001}y')).toBe('x⟨U+E0001⟩y');
    // A joiner next to ASCII letters hides nothing but is invisible: shown.
    expect(displayName('report\u200D.pdf')).toBe('report⟨U+200D⟩.pdf');
    expect(displayName('ab\u200Ccd')).toBe('ab⟨U+200C⟩cd');
  });

  it('escapes a lone surrogate (a name that is not valid Unicode)', () => {
    expect(displayName('bad\uD800name')).toBe('bad⟨U+D800⟩name');
    expect(displayName('bad\uDC00')).toBe('bad⟨U+DC00⟩');
  });

  it('shows a byte of a name that is not UTF-8 (a lone U+DC80..U+DCFF) as that byte', () => {
    expect(displayName('col\uDCFF.com')).toBe('col⟨0xFF⟩.com');
    expect(displayName('/tmp/\uDCC3\uDCA8x')).toBe('/tmp/⟨0xC3⟩⟨0xA8⟩x');
    expect(displayName('\uDC7F')).toBe('⟨U+DC7F⟩');
    // A real U+FFFD in a name is a character like any other.
    expect(displayName('col\uFFFD.com')).toBe('col\uFFFD.com');
  });

  it('leaves right-to-left text, other scripts and emoji exactly as they are', () => {
    for (const name of [
      'שלום עולם.pdf',
      'تقرير مالي.xlsx',
      // Persian with a zero-width non-joiner inside the word (می‌خواهم), and Hindi with a joiner (क्‍ष).
      'می\u200Cخواهم.txt',
      'क्\u200Dष.txt',
      'Ünïcödé – naïve café.txt',
      '漢字とかな.doc',
      'emoji 😀🎉.png',
      // ZWJ sequences, a skin tone, a presentation selector, a keycap, a regional-indicator flag, a tag flag.
      'team 👩🏽\u200D💻👨\u200D👩\u200D👧.txt',
      '\u2764\uFE0F\u200D\u{1F525} 1\uFE0F\u20E3 🇩🇪 \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}.txt',
      'spaces and "quotes" and \'single\'.txt',
      '/home/me/deep/path/file.txt',
      'C:\\Users\\me\\file.txt',
    ]) {
      expect(displayName(name), name).toBe(name);
    }
  });

  it('escapes what hides inside otherwise legitimate text, and keeps the text around it', () => {
    expect(displayName('שלום\u202E.exe')).toBe('שלום⟨U+202E⟩.exe');
    expect(displayName('😀\u200B😀')).toBe('😀⟨U+200B⟩😀');
    // A tag run that is not a complete flag is not a flag.
    expect(displayName('\u{1F3F4}\u{E0067}x')).toBe('\u{1F3F4}⟨U+E0067⟩x');
  });

  it('gives the same text when applied twice, and nothing it shows is hidden', () => {
    const hostile = 'a\u202E\u2066\n\u200B\uFEFF\u0000b';
    const once = displayName(hostile);
    expect(displayName(once)).toBe(once);
    expect(once).toMatch(/^[\x20-\x7e⟨⟩]+$/);
  });

  it('uses four hex digits at least, upper case', () => {
    expect(visibleEscape(0x0a)).toBe('⟨U+000A⟩');
    expect(visibleEscape(0xe0001)).toBe('⟨U+E0001⟩');
  });
});

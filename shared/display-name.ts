// How a file name or path is shown (list, detail, tray, notifications, CLI): every
// character that is invisible or reorders the text around it becomes a visible
// ⟨U+XXXX⟩, so `invoice\u202Efdp.exe` reads "invoice⟨U+202E⟩fdp.exe", never
// "invoiceexe.pdf", and a newline cannot break a line. Letters of any script
// (Hebrew, Arabic, emoji) stay as they are. Only for display: the stored name and
// what is copied or opened keep the real characters. A byte of a name that is not UTF-8 (a lone
// U+DC80..U+DCFF, see file-name-bytes.ts) shows as the byte: `col⟨0xFF⟩.com`.
import { escapedByte, visibleByte } from './file-name-bytes.ts';

// Controls (C0, DEL, C1), format characters (bidi controls U+202A–U+202E,
// U+2066–U+2069, U+200E/U+200F, U+061C, zero-width characters, the BOM, tags, …),
// line and paragraph separators, lone surrogates, and other default-ignorable
// (invisible) code points. Variation selectors and the combining grapheme joiner are
// left alone: they change how the character before them looks and never hide or
// reorder anything.
// A Scotland-style flag (U+1F3F4, tag characters, cancel tag) is matched first and kept whole.
const HIDDEN =
  /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|(?![\u034F\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;
/** The same, without the global flag's lastIndex state: the quick "anything to do?" check. */
const ANY_HIDDEN = new RegExp(HIDDEN.source, 'u');
const TAG_FLAG = 0x1f3f4;

const ZWNJ = 0x200c;
const ZWJ = 0x200d;

/** `⟨U+202E⟩`: the form every display of a name uses; `⟨0xFF⟩` for a byte that is not UTF-8. */
export const visibleEscape = (codePoint: number): string => {
  const byte = escapedByte(codePoint);
  return byte === null ? `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩` : visibleByte(byte);
};

const pictographic = (codePoint: number | undefined) => codePoint !== undefined && /\p{Extended_Pictographic}/u.test(String.fromCodePoint(codePoint));
/** Ends an emoji that a ZWJ may join: the emoji itself, a skin tone, or the emoji presentation selector. */
const emojiEnd = (codePoint: number | undefined) =>
  codePoint !== undefined && (pictographic(codePoint) || codePoint === 0xfe0f || /\p{Emoji_Modifier}/u.test(String.fromCodePoint(codePoint)));
/** A letter or mark outside ASCII: scripts (Arabic, Persian, Indic) whose words use ZWJ/ZWNJ. */
const scriptLetter = (codePoint: number | undefined) => codePoint !== undefined && codePoint > 0x7f && /[\p{L}\p{M}]/u.test(String.fromCodePoint(codePoint));

function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}

/**
 * A joiner inside a word or an emoji sequence is part of the text (👩‍💻, Persian
 * words), so it stays; anywhere else it is as invisible as any other format character.
 */
function isLegitimateJoiner(codePoint: number, text: string, offset: number): boolean {
  if (codePoint !== ZWJ && codePoint !== ZWNJ) return false;
  const before = codePointBefore(text, offset);
  const after = text.codePointAt(offset + 1);
  if (codePoint === ZWJ && emojiEnd(before) && pictographic(after)) return true;
  return scriptLetter(before) && scriptLetter(after);
}

/** Each hidden character replaced by what `replace` makes of its code point; everything else (legitimate joiners, tag flags) unchanged. */
function replaceHidden(text: string, replace: (codePoint: number) => string): string {
  if (!ANY_HIDDEN.test(text)) return text;
  return text.replace(HIDDEN, (match: string, offset: number) => {
    const codePoint = match.codePointAt(0)!;
    if (codePoint === TAG_FLAG || isLegitimateJoiner(codePoint, text, offset)) return match;
    return replace(codePoint);
  });
}

/** The name or path as it may be shown: hidden characters made visible as ⟨U+XXXX⟩, everything else unchanged. */
export const displayName = (text: string): string => replaceHidden(text, visibleEscape);

/**
 * The name without exactly the characters displayName() would escape: what the local
 * service keeps of a caller's file name. One definition, so a name the service stores
 * never shows an ⟨U+XXXX⟩, and nothing the display would flag slips through the service.
 */
export const withoutHidden = (text: string): string => replaceHidden(text, () => '');

// Text that may hold a file name, as SQLite keeps it losslessly. node:sqlite writes a lone
// surrogate as U+FFFD, so the escaped bytes of a name that is not UTF-8 (shared/file-name-bytes.ts)
// would be lost, and two such names could become one. In the stored form each lone surrogate is
// U+FDD0 and its four hex digits, and a real U+FDD0 is doubled. U+FDD0 is a noncharacter (Unicode
// keeps it for a program's internal use): no name in practice holds it, so stored text reads as the
// text itself, byte for byte. Not NUL (which no path holds): SQLite's LIKE and length() stop at it.
// Not U+FFFF: SQLite's LIKE and FTS5 read U+FFFE/U+FFFF (and surrogates) as U+FFFD, so a search
// for a real U+FFFD would match every escaped name. The mapping is per character: equality, UNIQUE,
// concatenation, substr at a separator and a LIKE on a stored-form pattern keep their meaning.

const MARK = '\uFDD0';
/** What the stored form changes: U+FDD0, and a lone surrogate (unicode mode never matches half of a pair). */
const NEEDS_MARK = /\uFDD0|\p{Cs}/u;
const NEEDS_MARK_ALL = /\uFDD0|\p{Cs}/gu;
/** A mark: doubled (a real U+FDD0), with a surrogate's hex digits, or on its own (a damaged cell: kept as it is). */
const MARKED = /\uFDD0(\uFDD0|D[89A-F][0-9A-F]{2})?/g;

/** The text as stored (unchanged unless it holds a lone surrogate or U+FDD0). */
export function toStoredText(text: string): string {
  if (!NEEDS_MARK.test(text)) return text;
  return text.replace(NEEDS_MARK_ALL, (found) => (found === MARK ? MARK + MARK : MARK + found.charCodeAt(0).toString(16).toUpperCase()));
}

/** Stored text as it was given to toStoredText. Total: whatever a damaged cell holds reads as something. */
export function fromStoredText(stored: string): string {
  if (!stored.includes(MARK)) return stored;
  return stored.replace(MARKED, (found, mark: string | undefined) => (mark === undefined ? MARK : mark === MARK ? MARK : String.fromCharCode(Number.parseInt(mark, 16))));
}

/** toStoredText for a value that may be null. */
export const toStoredOrNull = (text: string | null | undefined): string | null => (text === null || text === undefined ? null : toStoredText(text));

/**
 * SQL that rewrites a column stored before this form existed: its U+FDD0 doubled (a lone
 * surrogate could not be stored then, so nothing else changes). For a migration.
 */
export const DOUBLE_MARKS_SQL = (column: string): string => `replace(${column}, char(64976), char(64976, 64976))`;
/** SQL: whether a column holds U+FDD0 (and so needs DOUBLE_MARKS_SQL). */
export const HOLDS_MARK_SQL = (column: string): string => `instr(${column}, char(64976)) > 0`;

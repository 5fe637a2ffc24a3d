// The file name a service is told in attributes.file_name. It is the real name, as valid text: a byte
// of a name that is not UTF-8 goes as its display form `⟨0xFF⟩` (as a lone surrogate it would go as
// U+FFFD, or make a strict service refuse the JSON); the rest as it is (a service strips hidden
// characters itself). A name the service would refuse, and so never scan (nothing left once hidden
// characters and spaces are taken off, a separator in it, or over 255 characters once its bytes are
// spelled out), goes as its displayName form, separators (and a name of spaces) shown too, shortened
// in the middle so its extension stays.
import { displayName, visibleEscape, withoutHidden } from '../../shared/display-name.ts';
import { withVisibleBytes } from '../../shared/file-name-bytes.ts';

/** The longest file_name the File Scanning Service takes, in characters. */
const MAX_NAME_CHARS = 255;
/** Characters kept from the end of a shortened name (its extension). */
const KEPT_END = 40;

/** Whether a service keeps the name as it is sent (the local service's sanitizeFileName: last segment, no hidden characters, trimmed). */
function kept(name: string): boolean {
  const cleaned = withoutHidden(name).trim();
  return !/[/\\]/.test(name) && cleaned !== '' && cleaned !== '.' && cleaned !== '..' && [...name].length <= MAX_NAME_CHARS;
}

export function sendableName(name: string): string {
  const text = withVisibleBytes(name);
  if (kept(text)) return text;
  const visible = displayName(text);
  // A name of spaces only would be nothing once trimmed: each space shown too.
  const blank = visible.trim() === '';
  // Counted in characters once each separator is spelled out (a name of 128 backslashes is 1,024 of them).
  const shown = [...visible].flatMap((c) => [...(c === '/' || c === '\\' || blank ? visibleEscape(c.codePointAt(0)!) : c)]);
  if (shown.length <= MAX_NAME_CHARS) return shown.join('');
  return `${shown.slice(0, MAX_NAME_CHARS - KEPT_END - 1).join('')}…${shown.slice(-KEPT_END).join('')}`;
}

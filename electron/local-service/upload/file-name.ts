// Makes a caller-supplied file name safe to store and echo: the last path
// segment only, at most 255 characters, without controls, bidi controls (U+061C
// included) and other invisible format characters: exactly the set every display
// of a name escapes (shared/display-name.ts), so there is one list, not two.
import { withoutHidden } from '../../../shared/display-name.ts';

export const MAX_FILE_NAME_LENGTH = 255;

/** The cleaned name, or null when nothing usable remains or it is too long. */
export function sanitizeFileName(raw: string): string | null {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = withoutHidden(lastSegment).trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return null;
  if ([...cleaned].length > MAX_FILE_NAME_LENGTH) return null;
  return cleaned;
}

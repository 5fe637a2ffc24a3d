// Makes a caller-supplied file name safe to store and echo: the last path
// segment only, no control or bidi-override characters, at most 255 characters.

export const MAX_FILE_NAME_LENGTH = 255;

// C0/C1 controls, DEL, and the Unicode bidi controls that can disguise an extension.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The cleaned name, or null when nothing usable remains or it is too long. */
export function sanitizeFileName(raw: string): string | null {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment.replace(UNSAFE_CHARACTERS, '').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return null;
  if ([...cleaned].length > MAX_FILE_NAME_LENGTH) return null;
  return cleaned;
}

// What an API key may look like, and how it is shown: checked before it is
// stored, masked before anything leaves the main process. Messages never
// contain the key.
import { err, ok, type Result } from '../../shared/result.ts';

/** Longest key accepted (the IPC schema allows 4096 characters). */
export const MAX_API_KEY_LENGTH = 4096;

const MASK = '••••••••';
/** Keys shorter than this are shown as the mask alone: four characters of a short key give too much away. */
const MIN_LENGTH_FOR_SUFFIX = 12;

/**
 * Trims surrounding whitespace and checks the rest: not empty, not too long, and
 * only visible ASCII (it goes into an `Authorization: Bearer` header).
 * Error code `invalid_api_key`; the message says what is wrong and where, never the key.
 */
export function validateApiKey(input: string): Result<string> {
  const key = input.trim();
  if (key === '') return err('invalid_api_key', 'The API key is empty.');
  if (key.length > MAX_API_KEY_LENGTH) {
    return err('invalid_api_key', `The API key is too long (${key.length} characters; at most ${MAX_API_KEY_LENGTH}).`);
  }
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (code >= 0x21 && code <= 0x7e) continue;
    const position = `at position ${index + 1}`;
    if (/\s/u.test(key[index]!)) {
      return err('invalid_api_key', `The API key contains a space or other whitespace ${position}. Paste the key again without spaces or line breaks.`);
    }
    if (code < 0x20 || code === 0x7f) return err('invalid_api_key', `The API key contains a control character ${position}.`);
    return err('invalid_api_key', `The API key contains a non-ASCII character ${position}; keys use only ASCII letters, digits and punctuation.`);
  }
  return ok(key);
}

/** e.g. `••••••••3f9a`; never more than the last four characters, and none of a short key. */
export function maskApiKey(key: string): string {
  return key.length >= MIN_LENGTH_FOR_SUFFIX ? `${MASK}${key.slice(-4)}` : MASK;
}

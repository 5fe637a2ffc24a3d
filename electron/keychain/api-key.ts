// What an API key may look like, and how it is shown: checked before it is
// stored, masked before anything leaves the main process. Messages never
// contain the key.
import { err, ok, type Result } from '../../shared/result.ts';
import { apiKeyProblem, MAX_API_KEY_LENGTH } from '../../shared/settings/input-problems.ts';

const MASK = '••••••••';
/** Keys shorter than this are shown as the mask alone: four characters of a short key give too much away. */
const MIN_LENGTH_FOR_SUFFIX = 12;

/**
 * Trims surrounding whitespace and checks the rest: not empty, not too long, and
 * only visible ASCII (it goes into an `Authorization: Bearer` header).
 * Error code `invalid_api_key`; the message says what is wrong and where, never the key.
 */
export function validateApiKey(input: string): Result<string> {
  const found = apiKeyProblem(input);
  if (!found) return ok(input.trim());
  switch (found.problem) {
    case 'empty':
      return err('invalid_api_key', 'The API key is empty.');
    case 'too_long':
      return err('invalid_api_key', `The API key is too long (${found.length} characters; at most ${MAX_API_KEY_LENGTH}).`);
    case 'whitespace':
      return err('invalid_api_key', `The API key contains a space or other whitespace at position ${found.position}. Paste the key again without spaces or line breaks.`);
    case 'control':
      return err('invalid_api_key', `The API key contains a control character at position ${found.position}.`);
    case 'non_ascii':
      return err('invalid_api_key', `The API key contains a non-ASCII character at position ${found.position}; keys use only ASCII letters, digits and punctuation.`);
  }
}

/** e.g. `••••••••3f9a`; never more than the last four characters, and none of a short key. */
export function maskApiKey(key: string): string {
  return key.length >= MIN_LENGTH_FOR_SUFFIX ? `${MASK}${key.slice(-4)}` : MASK;
}

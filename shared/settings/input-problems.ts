// What is wrong with a remote base URL or an API key the user typed, as a code
// each side words in its own language: the core in its errors and the CLI, the
// renderer next to the field (before anything is sent). Never echoes the input.

export type BaseUrlProblem = 'not_a_url' | 'not_http' | 'credentials' | 'query_or_fragment' | 'too_long';

export const MAX_BASE_URL_LENGTH = 2048;

export function baseUrlProblem(value: string): BaseUrlProblem | null {
  if (value.length > MAX_BASE_URL_LENGTH) return 'too_long';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not_a_url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not_http';
  if (url.username || url.password) return 'credentials';
  if (url.search || url.hash) return 'query_or_fragment';
  return null;
}

/** English sentences for the core's errors and the CLI (the renderer has its own, translated). */
export const BASE_URL_PROBLEM_TEXT: Record<BaseUrlProblem, string> = {
  not_a_url: 'The service address is not a URL: it must start with https:// or http://.',
  not_http: 'The service address must use https:// or http://.',
  credentials: 'The service address must not contain a user name or password; the API key is set separately.',
  query_or_fragment: 'The service address must not contain a query (?…) or a fragment (#…).',
  too_long: `The service address is longer than ${MAX_BASE_URL_LENGTH} characters.`,
};

/** Longest key accepted (the IPC schema allows 4096 characters). */
export const MAX_API_KEY_LENGTH = 4096;

export type ApiKeyProblem =
  | { problem: 'empty' }
  | { problem: 'too_long'; length: number }
  | { problem: 'whitespace' | 'control' | 'non_ascii'; position: number };

/** Checks the key as it will be stored (surrounding whitespace trimmed): only visible ASCII fits a Bearer header. */
export function apiKeyProblem(input: string): ApiKeyProblem | null {
  const key = input.trim();
  if (key === '') return { problem: 'empty' };
  if (key.length > MAX_API_KEY_LENGTH) return { problem: 'too_long', length: key.length };
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (code >= 0x21 && code <= 0x7e) continue;
    const position = index + 1;
    if (/\s/u.test(key[index]!)) return { problem: 'whitespace', position };
    if (code < 0x20 || code === 0x7f) return { problem: 'control', position };
    return { problem: 'non_ascii', position };
  }
  return null;
}

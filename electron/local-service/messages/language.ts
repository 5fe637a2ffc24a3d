// Picks the language of human-readable messages from the Content-Language
// request header (spec section 4): `de` (or `de-AT`, `de-CH`…) gives German,
// anything else or nothing gives English.
import type { Language } from '../../../shared/service-contract/limits.ts';

export function languageOf(contentLanguage: string | string[] | undefined): Language {
  const value = Array.isArray(contentLanguage) ? contentLanguage[0] : contentLanguage;
  // The header may list several tags; the first one is the one we honour.
  const first = value?.split(',')[0]?.trim().toLowerCase() ?? '';
  const primary = first.split('-')[0];
  return primary === 'de' ? 'de' : 'en';
}

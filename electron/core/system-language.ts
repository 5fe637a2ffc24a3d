// The OS language for `language: system`: Intl first, then the POSIX locale
// variables; anything other than German falls back to English.
import type { Language } from '../../shared/service-contract/limits.ts';

export function systemLanguage(env: NodeJS.ProcessEnv = process.env, intlLocale = safeIntlLocale()): Language {
  const candidates = [env.LC_ALL, env.LC_MESSAGES, env.LANG, intlLocale];
  for (const value of candidates) {
    if (!value || value === 'C' || value === 'POSIX' || value.startsWith('C.')) continue;
    return value.toLowerCase().startsWith('de') ? 'de' : 'en';
  }
  return 'en';
}

function safeIntlLocale(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().locale;
  } catch {
    return undefined;
  }
}

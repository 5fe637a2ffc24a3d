// The OS language for `language: system`: the POSIX locale variables first,
// then Intl; anything other than German falls back to English. Called for every
// file the pipeline sends, so the costly part (Intl) is resolved once.
import type { Language } from '../../shared/service-contract/limits.ts';

export function systemLanguage(env: NodeJS.ProcessEnv = process.env, intlLocale: () => string | undefined = processIntlLocale): Language {
  // Intl is only asked when no variable decides.
  return languageOf(env.LC_ALL) ?? languageOf(env.LC_MESSAGES) ?? languageOf(env.LANG) ?? languageOf(intlLocale()) ?? 'en';
}

/** null: the value says nothing (unset, or the C/POSIX locale). */
function languageOf(value: string | undefined): Language | null {
  if (!value || value === 'C' || value === 'POSIX' || value.startsWith('C.')) return null;
  return value.toLowerCase().startsWith('de') ? 'de' : 'en';
}

// V8 fixes Intl's default locale when the process starts, so one lookup is the
// answer for the whole run (a new Intl.DateTimeFormat costs 50–300 µs).
let cached: { locale: string | undefined } | null = null;

/** Intl's default locale, resolved on the first call. */
export function processIntlLocale(): string | undefined {
  cached ??= { locale: safeIntlLocale() };
  return cached.locale;
}

function safeIntlLocale(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().locale;
  } catch {
    return undefined;
  }
}

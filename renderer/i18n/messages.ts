// Typing and lookup for the message catalogues. English is the reference:
// `Messages` is every English key, so a catalogue missing a key (or carrying an
// unknown one) fails to typecheck. Pure: no DOM, usable from unit tests.
import { en } from './en.ts';
import { de } from './de.ts';

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
export type Locale = 'en' | 'de';

/** Keys with plural forms, named without their `_one`/`_other` suffix. */
export type PluralKey = { [K in MessageKey]: K extends `${infer Base}_one` ? Base : never }[MessageKey];

export type MessageParams = Record<string, string | number>;

export const catalogues: Record<Locale, Messages> = { en, de };

const pluralRules = new Map<Locale, Intl.PluralRules>();
function pluralOf(locale: Locale, count: number): 'one' | 'other' {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  // English and German only distinguish "one" and "other".
  return rules.select(count) === 'one' ? 'one' : 'other';
}

/** Fills `{name}` placeholders; an unknown placeholder stays visible rather than vanishing. */
export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

export interface Translator {
  locale: Locale;
  t(key: MessageKey, params?: MessageParams): string;
  /** Plural message; `{count}` is filled with the locale-formatted count. */
  tn(key: PluralKey, count: number, params?: MessageParams): string;
}

const translators = new Map<Locale, Translator>();

export function translator(locale: Locale): Translator {
  const cached = translators.get(locale);
  if (cached) return cached;
  const messages = catalogues[locale];
  const numbers = new Intl.NumberFormat(locale);
  // Numbers in a sentence read as the locale writes them ("10,000 files queued", "10.000 Dateien").
  const localized = (params?: MessageParams): MessageParams | undefined =>
    params && Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'number' ? numbers.format(value) : value]));
  const made: Translator = {
    locale,
    t: (key, params) => interpolate(messages[key], localized(params)),
    tn: (key, count, params) =>
      interpolate(messages[`${key}_${pluralOf(locale, count)}` as MessageKey], { ...params, count: numbers.format(count) }),
  };
  translators.set(locale, made);
  return made;
}

/** Maps a BCP 47 tag (navigator.language, the OS locale) to a supported locale. */
export function localeFromTag(tag: string | undefined | null): Locale {
  return tag?.toLowerCase().startsWith('de') ? 'de' : 'en';
}

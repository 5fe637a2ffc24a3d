// Dates of the overview in the UI's language: a day (YYYY-MM-DD, the user's own) and a moment.
import type { Locale } from '../i18n/messages.ts';

const dayFormats = new Map<Locale, Intl.DateTimeFormat>();

/** A day as the user reads it, e.g. "14 Mar" / "14. März"; formatted in UTC, since the label is already the user's day. */
export function dayText(locale: Locale, day: string): string {
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    dayFormats.set(locale, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`));
}

export function momentText(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

// Creates the Intl formatters the first screen uses before it renders. The first
// one loads ICU data (14 ms of CPU in the benchmark's Chromium) and each new kind
// a little more; inside React's first render they added up to one long task.
import { formatCount, formatRowTime, formatSize } from '../i18n/format.ts';
import { translator, type Locale } from '../i18n/messages.ts';

/** One function per kind of formatter, so the caller can give each its own task. */
export function intlWarmUps(locale: Locale): Array<() => void> {
  const now = new Date();
  const yesterday = new Date(now.getTime() - 86_400_000);
  return [
    () => translator(locale).tn('list.count', 2), // NumberFormat and PluralRules
    () => formatCount(locale, 1),
    () => [formatSize(locale, 512), formatSize(locale, 50_000)],
    () => [formatRowTime(locale, now.toISOString(), now), formatRowTime(locale, yesterday.toISOString(), now)],
  ];
}

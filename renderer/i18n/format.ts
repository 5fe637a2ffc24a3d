// Locale-aware formatting of sizes, counts, dates and durations with Intl.
// Formatters are cached per locale: a list renders dozens of rows per frame.
import type { Locale } from './messages.ts';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

export function formatCount(locale: Locale, value: number): string {
  return cached(`count:${locale}`, () => new Intl.NumberFormat(locale)).format(value);
}

// Binary multiples, matching the service's limits (100 MB = 100 × 1024² bytes).
const SIZE_UNITS = [
  { unit: 'byte', factor: 1 },
  { unit: 'kilobyte', factor: 1024 },
  { unit: 'megabyte', factor: 1024 ** 2 },
  { unit: 'gigabyte', factor: 1024 ** 3 },
  { unit: 'terabyte', factor: 1024 ** 4 },
] as const;

export function formatSize(locale: Locale, bytes: number): string {
  // Intl's short "byte" reads "68 byte"; the symbol is clearer in both languages.
  if (bytes < 1024) return `${formatCount(locale, bytes)} B`;
  let chosen: (typeof SIZE_UNITS)[number] = SIZE_UNITS[0];
  for (const candidate of SIZE_UNITS) if (bytes >= candidate.factor) chosen = candidate;
  const digits = chosen.unit === 'byte' || bytes / chosen.factor >= 100 ? 0 : 1;
  const formatter = cached(
    `size:${locale}:${chosen.unit}:${digits}`,
    () => new Intl.NumberFormat(locale, { style: 'unit', unit: chosen.unit, unitDisplay: 'short', maximumFractionDigits: digits }),
  );
  return formatter.format(bytes / chosen.factor);
}

export function formatDateTime(locale: Locale, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return cached(`datetime:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' })).format(date);
}

/** Time only for today's scans, date and time otherwise: what a list row needs. */
export function formatRowTime(locale: Locale, iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  const formatter = sameDay
    ? cached(`time:${locale}`, () => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }))
    : cached(`dateshort:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }));
  return formatter.format(date);
}

export function formatDuration(locale: Locale, ms: number): string {
  if (ms < 1000) {
    return cached(`ms:${locale}`, () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' })).format(ms);
  }
  if (ms < 60_000) {
    return cached(`s:${locale}`, () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 1 })).format(ms / 1000);
  }
  return cached(`min:${locale}`, () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'short', maximumFractionDigits: 1 })).format(ms / 60_000);
}

export function formatPercent(locale: Locale, fraction: number): string {
  return cached(`pct:${locale}`, () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 })).format(fraction);
}

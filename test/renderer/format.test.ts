// Locale-aware formatting with Intl.
import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatRowTime, formatSize } from '../../renderer/i18n/format.ts';

/** Intl puts no-break or narrow spaces where its locale data says so; compare the words. */
const plain = (text: string): string => text.replace(/\s/g, ' ');

describe('formatting', () => {
  it('formats sizes in binary units, as the service counts them', () => {
    expect(plain(formatSize('en', 0))).toBe('0 B');
    expect(plain(formatSize('en', 1023))).toBe('1,023 B');
    expect(plain(formatSize('en', 1536))).toBe('1.5 kB');
    expect(plain(formatSize('en', 100 * 1024 * 1024))).toBe('100 MB');
    expect(plain(formatSize('de', 1536))).toBe('1,5 kB');
    expect(plain(formatSize('de', 3.25 * 1024 ** 3))).toBe('3,3 GB');
  });

  it('groups counts the local way', () => {
    expect(plain(formatCount('en', 100000))).toBe('100,000');
    expect(plain(formatCount('de', 100000))).toBe('100.000');
  });

  it('formats durations in a fitting unit', () => {
    expect(plain(formatDuration('en', 850))).toBe('850 ms');
    expect(plain(formatDuration('en', 12_340))).toBe('12.3 sec');
    expect(plain(formatDuration('de', 12_340))).toBe('12,3 Sek.');
    expect(plain(formatDuration('en', 90_000))).toBe('1.5 min');
  });

  it('shows only the time for today and the date otherwise', () => {
    const now = new Date(2025, 5, 10, 18, 0);
    const today = new Date(2025, 5, 10, 9, 5).toISOString();
    const earlier = new Date(2025, 5, 9, 9, 5).toISOString();
    expect(plain(formatRowTime('en', today, now))).toBe('9:05 AM');
    expect(plain(formatRowTime('de', today, now))).toBe('09:05');
    expect(plain(formatRowTime('de', earlier, now))).toBe('09.06.25, 09:05');
    expect(plain(formatRowTime('en', 'not a date', now))).toBe('not a date');
  });
});

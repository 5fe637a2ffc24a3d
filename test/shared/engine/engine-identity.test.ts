// clamd's VERSION answer, from recorded strings and fuzzed: who made a verdict,
// and never a fresh date out of a line that does not carry one.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseClamdVersion, signatureAgeDays } from '../../../shared/engine/engine-identity.ts';

describe('parseClamdVersion: recorded answers', () => {
  test('custom databases only (what the tests\' clamd answers): no signature version or date', () => {
    expect(parseClamdVersion('ClamAV 1.4.6')).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
  });

  test('the official databases: version, signature version and its date', () => {
    expect(parseClamdVersion('ClamAV 1.4.6/27467/Mon Nov 24 09:21:02 2026')).toEqual({
      name: 'clamav',
      version: '1.4.6',
      signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' },
    });
    // ctime pads single-digit days with a space.
    expect(parseClamdVersion('ClamAV 0.103.12/26000/Tue Feb  3 10:05:00 2026')?.signatures).toEqual({ version: 26000, date: '2026-02-03T10:05:00.000Z' });
    expect(parseClamdVersion('ClamAV 1.0.7-1/27100/Sun Dec  1 08:00:00 2024 ')?.version).toBe('1.0.7-1');
  });

  test('a date that is not one keeps the version and drops the signatures', () => {
    expect(parseClamdVersion('ClamAV 1.4.6/27467/Mon Feb 31 09:21:02 2026')).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
    expect(parseClamdVersion('ClamAV 1.4.6/27467/yesterday')).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
  });

  test('anything else is not a version answer', () => {
    for (const line of ['', 'PONG', 'ClamAV', 'ClamAV ', 'clamav 1.4.6', 'UNKNOWN COMMAND', 'ClamAV /27467/Mon Nov 24 09:21:02 2026']) {
      expect(parseClamdVersion(line)).toBeNull();
    }
  });
});

describe('parseClamdVersion: fuzzed', () => {
  test('never throws, and any result names ClamAV with a version from the line', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map((s) => `ClamAV ${s}`), fc.string().map((s) => `ClamAV 1.4.6/${s}`)), (line) => {
        const parsed = parseClamdVersion(line);
        if (parsed === null) return;
        expect(parsed.name).toBe('clamav');
        expect(line).toContain(parsed.version ?? '\0');
        if (parsed.signatures) expect(Number.isNaN(Date.parse(parsed.signatures.date))).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  test('every real date and version round-trips', () => {
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.tuple(fc.nat(9), fc.nat(20), fc.nat(20)),
        (date, signatureVersion, [major, minor, patch]) => {
          const d = new Date(Math.floor(date.getTime() / 1000) * 1000);
          const pad = (n: number) => String(n).padStart(2, '0');
          const ctime = `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
          const version = `${major}.${minor}.${patch}`;
          expect(parseClamdVersion(`ClamAV ${version}/${signatureVersion}/${ctime}`)).toEqual({
            name: 'clamav',
            version,
            signatures: { version: signatureVersion, date: d.toISOString() },
          });
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

test('signatureAgeDays counts whole days, never below 0', () => {
  const signatures = { version: 1, date: '2026-11-24T09:21:02.000Z' };
  expect(signatureAgeDays(signatures, new Date('2026-11-24T20:00:00Z'))).toBe(0);
  expect(signatureAgeDays(signatures, new Date('2026-11-27T09:21:02Z'))).toBe(3);
  expect(signatureAgeDays(signatures, new Date('2026-11-27T09:21:01Z'))).toBe(2);
  expect(signatureAgeDays(signatures, new Date('2026-11-20T00:00:00Z'))).toBe(0);
});

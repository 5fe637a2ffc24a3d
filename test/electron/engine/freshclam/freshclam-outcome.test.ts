// freshclam's outcome in words, from its output as ClamAV 1.x prints it: the
// success lines and the CDN's refusals cannot be produced offline, so they are
// recorded from freshclam's source (libfreshclam) and its documented output.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { freshclamOutcome } from '../../../../electron/engine/freshclam/freshclam-outcome.ts';

const UPDATED = `ClamAV update process started at Tue Nov 24 09:30:00 2026
daily.cld database available for update (local version: 27466, remote version: 27467)
Current database is 1 version behind.
Downloading database patch # 27467...
Time:    0.3s, ETA:    0.0s [========================>]    9.12KiB/9.12KiB
Testing database: '/home/u/.local/share/verdict/clamav-db/tmp.4c1e2/clamav-3a1b.tmp-daily.cld' ...
Database test passed.
daily.cld updated (version: 27467, sigs: 2070942, f-level: 90, builder: raynman)
main.cvd database is up-to-date (version: 62, sigs: 6647427, f-level: 90, builder: sigmgr)
bytecode.cvd database is up-to-date (version: 335, sigs: 86, f-level: 90, builder: raynman)
`;
const FIRST_DOWNLOAD = `ClamAV update process started at Tue Nov 24 09:30:00 2026
daily database available for download (remote version: 27467)
Time:   12.1s, ETA:    0.0s [========================>]   61.85MiB/61.85MiB
Testing database: '/d/clamav-db/tmp.1/clamav-2.tmp-daily.cvd' ...
Database test passed.
daily.cvd updated (version: 27467, sigs: 2070942, f-level: 90, builder: raynman)
main database available for download (remote version: 62)
main.cvd updated (version: 62, sigs: 6647427, f-level: 90, builder: sigmgr)
`;
const CURRENT = `ClamAV update process started at Tue Nov 24 10:00:00 2026
daily.cld database is up-to-date (version: 27467, sigs: 2070942, f-level: 90, builder: raynman)
main.cvd database is up-to-date (version: 62, sigs: 6647427, f-level: 90, builder: sigmgr)
bytecode.cvd database is up-to-date (version: 335, sigs: 86, f-level: 90, builder: raynman)
`;
const RATE_LIMITED = `ClamAV update process started at Tue Nov 24 10:05:00 2026
WARNING: FreshClam received error code 429 from the ClamAV Content Delivery Network (CDN).
This means that you have been rate limited by the CDN.
 1. Run FreshClam no more than once an hour to check for updates.
WARNING: You are on cool-down until after: 2026-11-24 16:05:00
`;
const STILL_COOLING = `ClamAV update process started at Tue Nov 24 11:00:00 2026
WARNING: FreshClam previously received error code 429 or 403 from the ClamAV Content Delivery Network (CDN).
This means that you have been rate limited or blocked by the CDN.
WARNING: You are still on cool-down until after: 2026-11-24 16:05:00
`;
const FORBIDDEN = `ClamAV update process started at Tue Nov 24 10:05:00 2026
WARNING: FreshClam received error code 403 from the ClamAV Content Delivery Network (CDN).
This could mean several things:
 1. You are running an out-of-date version of ClamAV / FreshClam.
WARNING: You are on cool-down until after: 2026-11-25 10:05:00
ERROR: Update failed for database: daily
`;
// What freshclam 1.4.6 printed on this machine, offline (see freshclam-run.test.ts for the live run).
const OFFLINE = `ClamAV update process started at Wed Nov 25 18:57:50 2026
WARNING: Can't query current.cvd.clamav.net
WARNING: Invalid DNS reply. Falling back to HTTP mode.
Trying to retrieve CVD header from https://database.clamav.net/daily.cvd
ERROR: remote_cvdhead: Download failed (6) ERROR:  Message: Couldn't resolve host name
WARNING: Failed to get daily database version information from server: https://database.clamav.net
ERROR: check_for_new_database_version: Failed to find daily database using server https://database.clamav.net.
Giving up on https://database.clamav.net...
ERROR: Update failed for database: daily
ERROR: Database update process failed: HTTP GET failed
ERROR: Update failed.
`;
const DISK_FULL = `ClamAV update process started at Tue Nov 24 09:30:00 2026
daily database available for download (remote version: 27467)
ERROR: Can't write to /d/clamav-db/tmp.1/clamav-2.tmp-daily.cvd: No space left on device
ERROR: Update failed for database: daily
`;
const NOT_WRITABLE = `ERROR: Can't create freshclam.dat in /tmp/fctest/db
Hint: The database directory must be writable for UID 102 or GID 105
ERROR: Failed to save freshclam.dat!
`;

// What freshclam 1.4.6 printed on this machine for a DatabaseCustomURL (update-cli.test.ts runs it).
const CUSTOM_UPDATED = `ClamAV update process started at Fri Nov 27 23:37:03 2026
WARNING: DNS Update Info disabled. Falling back to HTTP mode.
Testing database: '/d/clamav-db/tmp.42e004f9fb/clamav-462450b2.tmp-verdict-test.ndb' ...
Database test passed.
verdict-test.ndb updated (version: custom database, sigs: 1)
`;
const CUSTOM_CURRENT = `ClamAV update process started at Fri Nov 27 23:37:03 2026
WARNING: DNS Update Info disabled. Falling back to HTTP mode.
verdict-test.ndb is up-to-date (version: custom database)
`;

describe('freshclamOutcome', () => {
  test('a custom database (DatabaseCustomURL): updated or current, with no version', () => {
    expect(freshclamOutcome(CUSTOM_UPDATED, 0)).toEqual({ kind: 'updated', version: null, databases: ['verdict-test.ndb'] });
    expect(freshclamOutcome(CUSTOM_CURRENT, 0)).toEqual({ kind: 'current', version: null });
    expect(freshclamOutcome(UPDATED + CUSTOM_UPDATED, 0)).toEqual({ kind: 'updated', version: 27467, databases: ['daily', 'verdict-test.ndb'] });
    expect(freshclamOutcome(CUSTOM_UPDATED, 1).kind).toBe('failed');
  });

  test('updated: the daily database\'s new version', () => {
    expect(freshclamOutcome(UPDATED, 0)).toEqual({ kind: 'updated', version: 27467, databases: ['daily'] });
    expect(freshclamOutcome(FIRST_DOWNLOAD, 0)).toEqual({ kind: 'updated', version: 27467, databases: ['daily', 'main'] });
  });

  test('already current', () => {
    expect(freshclamOutcome(CURRENT, 0)).toEqual({ kind: 'current', version: 27467 });
  });

  test('rate limited, now or still: cool-down with its end', () => {
    expect(freshclamOutcome(RATE_LIMITED, 0)).toEqual({ kind: 'cool_down', until: '2026-11-24 16:05:00' });
    expect(freshclamOutcome(STILL_COOLING, 0)).toEqual({ kind: 'cool_down', until: '2026-11-24 16:05:00' });
  });

  test('refused by the mirror (403)', () => {
    expect(freshclamOutcome(FORBIDDEN, 11)).toEqual({ kind: 'mirror_refused', until: '2026-11-25 10:05:00' });
  });

  test('no connection, with freshclam\'s own words', () => {
    const outcome = freshclamOutcome(OFFLINE, 11);
    expect(outcome.kind).toBe('no_connection');
    expect(outcome.kind === 'no_connection' && outcome.detail).toContain('HTTP GET failed');
  });

  test('disk full and a folder freshclam cannot write', () => {
    expect(freshclamOutcome(DISK_FULL, 11).kind).toBe('disk_full');
    expect(freshclamOutcome(NOT_WRITABLE, 2)).toMatchObject({ kind: 'not_writable', detail: expect.stringContaining("Can't create freshclam.dat") });
  });

  test('success lines with a failing exit code are not a success; unknown output is a failure with its words', () => {
    expect(freshclamOutcome(UPDATED, 1).kind).toBe('failed');
    expect(freshclamOutcome('ERROR: something new\n', 62)).toEqual({ kind: 'failed', detail: 'ERROR: something new' });
    expect(freshclamOutcome('', null)).toEqual({ kind: 'failed', detail: 'freshclam ended with exit code null' });
  });
});

test('fuzzed: never throws; a success only with exit code 0', () => {
  const pieces = fc.constantFrom(UPDATED, CURRENT, CUSTOM_UPDATED, CUSTOM_CURRENT, RATE_LIMITED, FORBIDDEN, OFFLINE, DISK_FULL, NOT_WRITABLE, 'daily.cld updated (version: x', '\r', '\n');
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.string(), pieces), { maxLength: 6 }), fc.option(fc.integer({ min: 0, max: 255 })), (parts, exitCode) => {
      const outcome = freshclamOutcome(parts.join(''), exitCode);
      if (outcome.kind === 'updated' || outcome.kind === 'current') expect(exitCode).toBe(0);
    }),
    { numRuns: 1_000 },
  );
});

// The scan limits a clamd works under and whether it reports what lies beyond them (issue 27 §3):
// Verdict's own clamd says so; a system clamd's clamd.conf is read (never changed), with clamd's
// defaults for what it leaves out; where it cannot be read, the limits are unknown.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coverageLimitsFor, coverageLimitsText } from '../../../electron/engine/conf/coverage-limits.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-coverage-limits-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the scan limits of the clamd in use', () => {
  it("Verdict's own clamd reports files beyond them as scanned in part", () => {
    const own = coverageLimitsFor('own');
    expect(own).toMatchObject({ maxFileSize: '120M', maxScanSize: '400M', maxRecursion: '17', maxFiles: '10000', reported: { limits: true, encrypted: true }, configPath: null });
    expect(coverageLimitsText(own)).toBe('MaxFileSize 120M, MaxScanSize 400M, MaxRecursion 17, MaxFiles 10000; files beyond them and encrypted archives read “Scanned in part”.');
    expect(coverageLimitsText(own, 'de')).toContain('„Teilweise geprüft“');
  });

  it("a system clamd's config as Debian ships it: its limits, not reported (they read as clean)", async () => {
    const conf = join(dir, 'clamd.conf');
    await writeFile(conf, '# Debian\nMaxScanSize 100M\nMaxFileSize 25M\nMaxRecursion 16\n#AlertExceedsMax yes\n');
    const limits = coverageLimitsFor('system', conf);
    expect(limits).toMatchObject({ maxFileSize: '25M', maxScanSize: '100M', maxRecursion: '16', maxFiles: '10000', reported: { limits: false, encrypted: false } });
    expect(coverageLimitsText(limits)).toBe(
      `MaxFileSize 25M, MaxScanSize 100M, MaxRecursion 16, MaxFiles 10000 (from ${conf}); files beyond them and encrypted archives are not reported: clamd answers OK and they read as clean (AlertExceedsMax and AlertEncryptedArchive are off; Verdict does not change that file).`,
    );
    await writeFile(conf, 'AlertExceedsMax yes\nAlertEncrypted yes\n');
    expect(coverageLimitsText(coverageLimitsFor('system', conf))).toContain('files beyond them and encrypted archives read “Scanned in part”');
    await writeFile(conf, 'AlertExceedsMax yes\n');
    expect(coverageLimitsText(coverageLimitsFor('system', conf))).toContain('; encrypted archives are not reported');
  });

  it('unknown when the config cannot be read, or the clamd is one the user configured', () => {
    expect(coverageLimitsFor('system', join(dir, 'missing.conf'))).toBeNull();
    expect(coverageLimitsFor('configured')).toBeNull();
    expect(coverageLimitsText(null)).toMatch(/^unknown: /);
    expect(coverageLimitsText(null, 'de')).toMatch(/^unbekannt: /);
  });
});

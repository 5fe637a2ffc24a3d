// The reuse rules, one case each.
import { describe, expect, test } from 'vitest';
import { BUILTIN_IDENTITY, type EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { mayReuseVerdict, signatureKey } from '../../../shared/engine/verdict-reuse.ts';
import { DEFAULT_DETECTION, detectionKey, detectionSettingsFieldSchema } from '../../../shared/settings/detection.ts';

const clamav = (signatureVersion: number | null): EngineIdentity => ({
  name: 'clamav',
  version: '1.4.6',
  signatures: signatureVersion === null ? null : { version: signatureVersion, date: '2026-11-24T09:21:02.000Z' },
});

describe('mayReuseVerdict', () => {
  test('an unsafe verdict is reused whatever scans now', () => {
    expect(mayReuseVerdict({ safe: false, engine: BUILTIN_IDENTITY }, clamav(27467))).toEqual({ reuse: true, why: 'unsafe_verdict' });
    expect(mayReuseVerdict({ safe: false, engine: null }, BUILTIN_IDENTITY)).toEqual({ reuse: true, why: 'unsafe_verdict' });
  });

  test('a safe built-in verdict is never reused once ClamAV is available, and is while it is not', () => {
    expect(mayReuseVerdict({ safe: true, engine: BUILTIN_IDENTITY }, clamav(27467))).toEqual({ reuse: false, why: 'other_engine' });
    expect(mayReuseVerdict({ safe: true, engine: BUILTIN_IDENTITY }, BUILTIN_IDENTITY)).toEqual({ reuse: true, why: 'same_engine' });
  });

  test('a safe ClamAV verdict is not reused by the built-in engine', () => {
    expect(mayReuseVerdict({ safe: true, engine: clamav(27467) }, BUILTIN_IDENTITY)).toEqual({ reuse: false, why: 'other_engine' });
  });

  test('a safe ClamAV verdict only while the signature version is the one it was made with', () => {
    expect(mayReuseVerdict({ safe: true, engine: clamav(27467) }, clamav(27467))).toEqual({ reuse: true, why: 'same_signatures' });
    expect(mayReuseVerdict({ safe: true, engine: clamav(27467) }, clamav(27468))).toEqual({ reuse: false, why: 'signatures_changed' });
    expect(mayReuseVerdict({ safe: true, engine: clamav(null) }, clamav(null))).toEqual({ reuse: false, why: 'signatures_unknown' });
    expect(mayReuseVerdict({ safe: true, engine: clamav(27467) }, clamav(null))).toEqual({ reuse: false, why: 'signatures_unknown' });
  });

  test('a safe verdict that does not say which engine made it (recorded before engines were) is not reused', () => {
    expect(mayReuseVerdict({ safe: true, engine: null }, clamav(27467))).toEqual({ reuse: false, why: 'engine_unknown' });
  });

  test('custom databases known by their files (issue 26): reused while the digest is the same, not once it changed or when the earlier verdict has none', () => {
    const withFiles = (digest: string, signatureVersion: number | null = null): EngineIdentity => ({ ...clamav(signatureVersion), signatureBasis: 'databases', databases: digest.repeat(64) });
    expect(mayReuseVerdict({ safe: true, engine: withFiles('a') }, withFiles('a'))).toEqual({ reuse: true, why: 'same_databases' });
    expect(mayReuseVerdict({ safe: true, engine: withFiles('a') }, withFiles('b'))).toEqual({ reuse: false, why: 'signatures_changed' });
    // The same daily version, another third-party database: not the same signatures.
    expect(mayReuseVerdict({ safe: true, engine: withFiles('a', 27467) }, withFiles('b', 27467))).toEqual({ reuse: false, why: 'signatures_changed' });
    expect(mayReuseVerdict({ safe: true, engine: clamav(27467) }, withFiles('a', 27467))).toEqual({ reuse: false, why: 'signatures_unknown' });
    expect(mayReuseVerdict({ safe: false, engine: clamav(null) }, withFiles('a'))).toEqual({ reuse: true, why: 'unsafe_verdict' });
  });
});

describe('signatureKey', () => {
  test('one key per engine and signature set; none when nothing tells them apart', () => {
    expect(signatureKey(BUILTIN_IDENTITY)).toBe('builtin');
    expect(signatureKey({ ...clamav(null), signatureBasis: 'databases', databases: 'c'.repeat(64) })).toBe(`clamav:databases:${'c'.repeat(64)}`);
    expect(signatureKey(clamav(27467))).toBe('clamav:1.4.6:27467');
    expect(signatureKey({ ...clamav(27467), version: '1.5.0' })).toBe('clamav:1.5.0:27467');
    expect(signatureKey(clamav(null))).toBeNull();
    expect(signatureKey(null)).toBeNull();
  });

  test('the detection settings are part of the key (issue 28 §2); the defaults add nothing, so keys stored before still match', () => {
    const files = { ...clamav(null), signatureBasis: 'databases' as const, databases: 'c'.repeat(64) };
    expect(signatureKey({ ...files, detection: 'pua=all;fs=120;ss=400;r=17;f=10000;a=1;h=1' })).toBe(`clamav:databases:${'c'.repeat(64)}:detection:pua=all;fs=120;ss=400;r=17;f=10000;a=1;h=1`);
    expect(signatureKey({ ...clamav(27467), detection: 'x' })).toBe('clamav:1.4.6:27467:detection:x');
    expect(signatureKey({ ...files, detection: 'x' })).not.toBe(signatureKey(files));
  });
});

describe('verdicts under other detection settings (issue 28 §2)', () => {
  const withFiles = (detection?: string): EngineIdentity => ({ ...clamav(null), signatureBasis: 'databases', databases: 'a'.repeat(64), ...(detection ? { detection } : {}) });
  const puaOn = detectionKey({ ...DEFAULT_DETECTION, pua: { enabled: true, mode: 'all', categories: [] } });
  const smallFiles = detectionKey({ ...DEFAULT_DETECTION, maxFileSizeMb: 1 });

  test('the defaults have no key: verdicts made before the setting existed still stand', () => {
    expect(detectionKey(DEFAULT_DETECTION)).toBeUndefined();
    expect(detectionKey(detectionSettingsFieldSchema.parse({}))).toBeUndefined();
    expect(mayReuseVerdict({ safe: true, engine: withFiles() }, withFiles(detectionKey(DEFAULT_DETECTION)))).toEqual({ reuse: true, why: 'same_databases' });
  });

  test('a clean verdict is not reused once PUA is on or a limit changed, nor the other way round', () => {
    expect(mayReuseVerdict({ safe: true, engine: withFiles() }, withFiles(puaOn))).toEqual({ reuse: false, why: 'settings_changed' });
    expect(mayReuseVerdict({ safe: true, engine: withFiles(puaOn) }, withFiles())).toEqual({ reuse: false, why: 'settings_changed' });
    expect(mayReuseVerdict({ safe: true, engine: withFiles(puaOn) }, withFiles(smallFiles))).toEqual({ reuse: false, why: 'settings_changed' });
    expect(mayReuseVerdict({ safe: true, engine: withFiles(puaOn) }, withFiles(puaOn))).toEqual({ reuse: true, why: 'same_databases' });
  });

  test('a PUA finding or a limit alert does not outlive the settings that made it (unlike other unsafe verdicts)', () => {
    expect(mayReuseVerdict({ safe: false, engine: withFiles(puaOn) }, withFiles())).toEqual({ reuse: false, why: 'settings_changed' });
    expect(mayReuseVerdict({ safe: false, engine: withFiles(smallFiles) }, withFiles())).toEqual({ reuse: false, why: 'settings_changed' });
    expect(mayReuseVerdict({ safe: false, engine: withFiles(puaOn) }, withFiles(puaOn))).toEqual({ reuse: true, why: 'unsafe_verdict' });
  });
});

describe('verdicts given while the self-test failed (issue 27 §2)', () => {
  const failed: EngineIdentity = { ...clamav(27467), selfTest: 'failed' };

  test('a clean one is neither reused nor a key to skip unchanged files on; a threat still stands', () => {
    expect(mayReuseVerdict({ safe: true, engine: failed }, clamav(27467))).toEqual({ reuse: false, why: 'self_test_failed' });
    expect(mayReuseVerdict({ safe: false, engine: failed }, clamav(27467))).toEqual({ reuse: true, why: 'unsafe_verdict' });
    expect(signatureKey(failed)).toBeNull();
    expect(signatureKey(clamav(27467))).toBe('clamav:1.4.6:27467');
  });
});

// Which engine made a verdict, as the detail panel words it (en and de).
import { describe, expect, it } from 'vitest';
import { BUILTIN_IDENTITY } from '../../shared/engine/engine-identity.ts';
import { verdictEngineText } from '../../renderer/detail/engine-text.ts';
import { translator } from '../../renderer/i18n/messages.ts';

const en = translator('en');
const de = translator('de');
const clamav = { name: 'clamav' as const, version: '1.4.6', signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' } };
const local = (engine: typeof clamav | typeof BUILTIN_IDENTITY | null, safe: boolean | null = true) => ({ safe, backend: 'local', engine });

describe('the verdict engine line', () => {
  it('ClamAV with dated signatures: version, signature version and date', () => {
    expect(verdictEngineText(local(clamav), en)).toBe('ClamAV 1.4.6 · signatures 27467 of 24 Nov 2026');
    expect(verdictEngineText(local(clamav), de)).toBe('ClamAV 1.4.6 · Signaturen 27467 vom 24. Nov. 2026');
  });

  it('the built-in engine: basic checks only, and why', () => {
    expect(verdictEngineText(local(BUILTIN_IDENTITY), en)).toBe('Basic checks only (EICAR test file): ClamAV was not available');
    expect(verdictEngineText(local(BUILTIN_IDENTITY, false), de)).toBe('Nur Basisprüfung (EICAR-Testdatei): ClamAV war nicht verfügbar');
  });

  it('ClamAV without dated signatures, or without a version', () => {
    expect(verdictEngineText(local({ ...clamav, signatures: null }), en)).toBe('ClamAV 1.4.6 · signatures without a version (custom databases only)');
    expect(verdictEngineText(local({ ...clamav, version: null, signatures: null } as never), de)).toBe('ClamAV (Version unbekannt)');
  });

  it('not known: not recorded here (older scans), not reported by a remote service; nothing without a verdict', () => {
    expect(verdictEngineText(local(null), en)).toBe('Not recorded');
    expect(verdictEngineText({ safe: true, backend: 'https://scan.example.com', engine: null }, en)).toBe('Not reported by the service');
    expect(verdictEngineText({ safe: false, backend: 'https://scan.example.com' }, de)).toBe('Vom Dienst nicht angegeben');
    expect(verdictEngineText(local(clamav, null), en)).toBeNull();
  });
});

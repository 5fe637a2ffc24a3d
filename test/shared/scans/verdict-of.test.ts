// verdictOf, the one place that decides how a record reads: a clean answer of the built-in
// engine (basic checks only, ClamAV not available) is 'basic-only', never 'safe'; its threat
// stays 'unsafe'; the engine the record names decides, and its label only when it names none.
import { describe, expect, it } from 'vitest';
import { BUILTIN_IDENTITY, type EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { BASIC_CHECKS_CLEAN_LABEL, isBasicChecksOnly, verdictOf, VERDICTS } from '../../../shared/scans/record.ts';
import { DETAILED_LABELS } from '../../../electron/engine/engine.ts';

const CLAMAV: EngineIdentity = { name: 'clamav', version: '1.4.6', signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' } };
const completed = { status: 'completed' as const };

describe('verdictOf and basic checks only', () => {
  it('reads a clean answer of the built-in engine as basic-only, by its engine', () => {
    expect(verdictOf({ ...completed, safe: true, detailed: BASIC_CHECKS_CLEAN_LABEL, engine: BUILTIN_IDENTITY })).toBe('basic-only');
    // The engine decides, whatever the label says.
    expect(verdictOf({ ...completed, safe: true, detailed: 'clean', engine: BUILTIN_IDENTITY })).toBe('basic-only');
    expect(verdictOf({ ...completed, safe: true, detailed: null, engine: BUILTIN_IDENTITY })).toBe('basic-only');
  });

  it('reads it by its label when the record names no engine (a remote service, an older record)', () => {
    expect(verdictOf({ ...completed, safe: true, detailed: BASIC_CHECKS_CLEAN_LABEL, engine: null })).toBe('basic-only');
    expect(verdictOf({ ...completed, safe: true, detailed: BASIC_CHECKS_CLEAN_LABEL })).toBe('basic-only');
    expect(verdictOf({ ...completed, safe: true, detailed: 'clean', engine: null })).toBe('safe');
    expect(verdictOf({ ...completed, safe: true, detailed: null })).toBe('safe');
  });

  it('keeps ClamAV clean as safe, even with the built-in label (the engine named wins)', () => {
    expect(verdictOf({ ...completed, safe: true, detailed: 'clean', engine: CLAMAV })).toBe('safe');
    expect(verdictOf({ ...completed, safe: true, detailed: BASIC_CHECKS_CLEAN_LABEL, engine: CLAMAV })).toBe('safe');
  });

  it('keeps a threat the built-in engine found unsafe, and content the user allowed allowed', () => {
    expect(verdictOf({ ...completed, safe: false, detailed: 'infected', engine: BUILTIN_IDENTITY })).toBe('unsafe');
    expect(verdictOf({ ...completed, safe: false, detailed: 'infected', engine: BUILTIN_IDENTITY, disposition: 'quarantined' })).toBe('unsafe');
    expect(verdictOf({ ...completed, safe: false, detailed: 'infected', engine: BUILTIN_IDENTITY, disposition: 'allowed' })).toBe('allowed');
  });

  it('never reads a record without a completed verdict as basic-only', () => {
    const builtin = { detailed: BASIC_CHECKS_CLEAN_LABEL, engine: BUILTIN_IDENTITY };
    expect(verdictOf({ status: 'failed', safe: true, ...builtin })).toBe('could-not-scan');
    expect(verdictOf({ status: 'skipped', safe: null, ...builtin })).toBe('skipped');
    expect(verdictOf({ status: 'processing', safe: null, ...builtin })).toBe('pending');
    expect(verdictOf({ ...completed, safe: null, ...builtin })).toBe('could-not-scan');
  });

  it('lists basic-only among the verdicts, and tells basic checks by engine first', () => {
    expect(VERDICTS).toContain('basic-only');
    expect(isBasicChecksOnly({ engine: BUILTIN_IDENTITY, detailed: 'clean' })).toBe(true);
    expect(isBasicChecksOnly({ engine: CLAMAV, detailed: BASIC_CHECKS_CLEAN_LABEL })).toBe(false);
    expect(isBasicChecksOnly({ engine: undefined, detailed: BASIC_CHECKS_CLEAN_LABEL })).toBe(true);
  });

  it('knows the label the built-in engine writes', () => {
    expect(BASIC_CHECKS_CLEAN_LABEL).toBe(DETAILED_LABELS.basicChecksClean);
  });
});

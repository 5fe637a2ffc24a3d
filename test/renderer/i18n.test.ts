// The message catalogues: German has every English key (TypeScript enforces
// that too), the same placeholders, complete plural pairs, no empty text.
import { describe, expect, it } from 'vitest';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { catalogues, interpolate, localeFromTag, translator, type MessageKey } from '../../renderer/i18n/messages.ts';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

describe('message catalogues', () => {
  it('German has exactly the English keys', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it('every message has text and the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      for (const messages of Object.values(catalogues)) expect(messages[key].trim(), key).not.toBe('');
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('plural messages come in pairs and count with {count}', () => {
    const keys = Object.keys(en);
    for (const key of keys.filter((name) => name.endsWith('_one'))) {
      expect(keys, key).toContain(key.replace(/_one$/, '_other'));
      expect(placeholders(en[key as MessageKey])).toContain('count');
    }
    for (const key of keys.filter((name) => name.endsWith('_other'))) expect(keys, key).toContain(key.replace(/_other$/, '_one'));
  });

  it('one word for each engine: "basic checks" (Basisprüfung) for the EICAR-only engine, "on this computer" for the local service, never "built-in"', () => {
    for (const [language, messages, banned] of [['en', en, /built-in/i], ['de', de, /eingebaut/i]] as const) {
      for (const [key, text] of Object.entries(messages)) expect(text, `${language} ${key}`).not.toMatch(banned);
    }
    expect(en['engine.name.builtin']).toBe('Basic checks (EICAR test file only)');
    expect(de['engine.name.builtin']).toBe('Basisprüfung (nur EICAR-Testdatei)');
    expect(en['drop.hint']).toContain('on this computer');
    expect(de['drop.hint']).toContain('auf diesem Computer');
  });

  it('the verdict words differ, so "could not scan" never reads like "clean"', () => {
    for (const messages of Object.values(catalogues)) {
      const words = ['unsafe', 'safe', 'could-not-scan', 'pending', 'skipped'].map((verdict) => messages[`verdict.${verdict}` as MessageKey]);
      expect(new Set(words).size).toBe(words.length);
    }
  });
});

describe('translator', () => {
  it('fills placeholders and chooses plural forms with the locale’s number format', () => {
    expect(translator('en').tn('threats.banner', 1)).toBe('1 threat found');
    expect(translator('en').tn('threats.banner', 1234)).toBe('1,234 threats found');
    expect(translator('de').tn('threats.banner', 1)).toBe('1 Bedrohung gefunden');
    expect(translator('de').tn('threats.banner', 1234)).toBe('1.234 Bedrohungen gefunden');
    expect(translator('de').t('detail.errorCode', { code: 'not_found' })).toBe('Fehlercode: not_found');
    // Numbers passed to t() too: the notice after a drop of 10,000 files.
    expect(translator('en').t('drop.queued_other', { count: 10_000 })).toBe('10,000 files queued');
    expect(translator('de').t('drop.queued_other', { count: 10_000 })).toMatch(/^10\.000 /);
  });

  it('leaves an unknown placeholder visible instead of dropping it', () => {
    expect(interpolate('a {x} b {y}', { x: 1 })).toBe('a 1 b {y}');
  });

  it('maps OS language tags to a supported language', () => {
    expect(localeFromTag('de-AT')).toBe('de');
    expect(localeFromTag('DE')).toBe('de');
    expect(localeFromTag('en-GB')).toBe('en');
    expect(localeFromTag('fr-FR')).toBe('en');
    expect(localeFromTag(undefined)).toBe('en');
  });
});

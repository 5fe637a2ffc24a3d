// The OS language for `language: system`: the locale variables decide first,
// Intl only when none does, and Intl is resolved once per process (it cannot
// change during a run, and asking costs more than the rest of a file's bookkeeping).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processIntlLocale, systemLanguage } from '../../../electron/core/system-language.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('systemLanguage', () => {
  it('takes LC_ALL, then LC_MESSAGES, then LANG, and German or else English', () => {
    const intl = () => 'de-DE';
    expect(systemLanguage({ LC_ALL: 'de_AT.UTF-8', LANG: 'en_US.UTF-8' }, intl)).toBe('de');
    expect(systemLanguage({ LC_MESSAGES: 'en_GB.UTF-8', LANG: 'de_DE.UTF-8' }, intl)).toBe('en');
    expect(systemLanguage({ LANG: 'fr_FR.UTF-8' }, intl)).toBe('en');
    expect(systemLanguage({ LANG: 'DE_ch' }, intl)).toBe('de');
  });

  it('skips the C and POSIX locales and asks Intl only when no variable decides', () => {
    const intl = vi.fn(() => 'de-DE');
    expect(systemLanguage({ LANG: 'de_DE.UTF-8' }, intl)).toBe('de');
    expect(intl).not.toHaveBeenCalled();
    expect(systemLanguage({ LC_ALL: 'C', LC_MESSAGES: 'POSIX', LANG: 'C.UTF-8' }, intl)).toBe('de');
    expect(intl).toHaveBeenCalledTimes(1);
    expect(systemLanguage({}, () => undefined)).toBe('en');
  });

  it('resolves the process locale through Intl once, then answers from memory', () => {
    const expected = new Intl.DateTimeFormat().resolvedOptions().locale;
    expect(processIntlLocale()).toBe(expected);
    const resolve = vi.spyOn(Intl, 'DateTimeFormat');
    for (let i = 0; i < 100; i++) {
      expect(processIntlLocale()).toBe(expected);
      systemLanguage({});
    }
    expect(resolve).not.toHaveBeenCalled();
  });
});

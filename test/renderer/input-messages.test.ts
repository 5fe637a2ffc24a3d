// The settings page's words for a bad service address or API key, in both languages.
import { describe, expect, it } from 'vitest';
import { apiKeyProblem, baseUrlProblem, type BaseUrlProblem } from '../../shared/settings/input-problems.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { apiKeyMessage, baseUrlMessage } from '../../renderer/settings/input-messages.ts';

const say = (locale: 'en' | 'de', message: { key: Parameters<ReturnType<typeof translator>['t']>[0]; params?: Record<string, string | number> }) => translator(locale).t(message.key, message.params);

describe('baseUrlMessage', () => {
  it('has its own sentence for every problem, with no placeholder left', () => {
    const problems: BaseUrlProblem[] = ['not_a_url', 'not_http', 'credentials', 'query_or_fragment', 'too_long'];
    for (const locale of ['en', 'de'] as const) {
      const texts = problems.map((problem) => say(locale, baseUrlMessage(problem)));
      expect(new Set(texts).size).toBe(problems.length);
      for (const text of texts) expect(text).not.toMatch(/[{}]/);
    }
  });

  it('tells a user who typed credentials to leave them out', () => {
    expect(say('en', baseUrlMessage(baseUrlProblem('https://me:pw@scan.example.com')!))).toMatch(/user name and password/);
    expect(say('de', baseUrlMessage(baseUrlProblem('https://me:pw@scan.example.com')!))).toMatch(/Benutzername und Passwort/);
  });
});

describe('apiKeyMessage', () => {
  it('says where the bad character is, never what the key is', () => {
    const text = say('en', apiKeyMessage(apiKeyProblem('secret-part two')!));
    expect(text).toBe('The API key contains a space or line break at position 12. Paste it again without spaces.');
    expect(text).not.toContain('secret');
    expect(say('de', apiKeyMessage(apiKeyProblem('schlüssel')!))).toMatch(/Position 5/);
    expect(say('en', apiKeyMessage(apiKeyProblem('k'.repeat(5000))!))).toBe('The API key is too long (5,000 characters; at most 4,096).');
  });
});

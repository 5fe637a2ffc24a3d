// The shared checks behind the core's and the settings page's errors for a typed
// service address or API key.
import { describe, expect, it } from 'vitest';
import { apiKeyProblem, BASE_URL_PROBLEM_TEXT, baseUrlProblem, MAX_API_KEY_LENGTH, MAX_BASE_URL_LENGTH } from '../../shared/settings/input-problems.ts';
import { baseUrlSchema } from '../../shared/settings/settings.ts';

describe('baseUrlProblem', () => {
  it.each([
    ['https://scan.example.com', null],
    ['http://127.0.0.1:8080/api/', null],
    ['scan.example.com', 'not_a_url'],
    ['', 'not_a_url'],
    ['ftp://scan.example.com', 'not_http'],
    ['javascript:alert(1)', 'not_http'],
    ['file:///etc/passwd', 'not_http'],
    ['https://admin:secret@scan.example.com', 'credentials'],
    ['https://admin@scan.example.com', 'credentials'],
    ['https://scan.example.com/?key=1', 'query_or_fragment'],
    ['https://scan.example.com/#top', 'query_or_fragment'],
    [`https://scan.example.com/${'a'.repeat(MAX_BASE_URL_LENGTH)}`, 'too_long'],
  ])('%j → %s', (input, expected) => {
    expect(baseUrlProblem(input)).toBe(expected);
  });

  it('is what the settings schema says, in a sentence that never quotes the address', () => {
    const parsed = baseUrlSchema.safeParse('https://admin:pw_CANARY_77@scan.example.com');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(BASE_URL_PROBLEM_TEXT.credentials);
    expect(JSON.stringify(parsed.error?.issues)).not.toContain('pw_CANARY_77');
    expect(baseUrlSchema.safeParse('https://scan.example.com').success).toBe(true);
  });
});

describe('apiKeyProblem', () => {
  it.each([
    ['  vk_live_0123456789  ', null],
    ['', { problem: 'empty' }],
    ['   \t ', { problem: 'empty' }],
    ['vk live', { problem: 'whitespace', position: 3 }],
    ['vk\u00a0live', { problem: 'whitespace', position: 3 }],
    ['vk\u0007live', { problem: 'control', position: 3 }],
    ['vk\u007flive', { problem: 'control', position: 3 }],
    ['schlüssel', { problem: 'non_ascii', position: 5 }],
    ['k-🔑', { problem: 'non_ascii', position: 3 }],
    ['k'.repeat(MAX_API_KEY_LENGTH + 1), { problem: 'too_long', length: MAX_API_KEY_LENGTH + 1 }],
  ])('%j → %j', (input, expected) => {
    expect(apiKeyProblem(input)).toEqual(expected);
  });
});

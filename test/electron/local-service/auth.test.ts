// Bearer keys and the rate limiter on their own: what the HTTP tests cannot
// reach cheaply (key validation, refill over time with a controlled clock).
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApiKeyring, integrationIdOf } from '../../../electron/local-service/auth/api-keys.ts';
import { createRateLimiter } from '../../../electron/local-service/auth/rate-limiter.ts';

const withAuth = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('API keys', () => {
  it('maps each key to a stable integration id that does not contain the key', () => {
    const keyring = createApiKeyring(['key-one-0001', 'key-two-0002']);
    const one = keyring.authenticate(withAuth('Bearer key-one-0001'));
    const two = keyring.authenticate(withAuth('bearer   key-two-0002'));
    expect(one).toEqual({ ok: true, integrationId: integrationIdOf('key-one-0001') });
    expect(two).toEqual({ ok: true, integrationId: integrationIdOf('key-two-0002') });
    expect(integrationIdOf('key-one-0001')).not.toBe(integrationIdOf('key-two-0002'));
    expect(integrationIdOf('key-one-0001')).not.toContain('key-one');
  });

  it('tells a missing key from an unknown one', () => {
    const keyring = createApiKeyring(['key-one-0001']);
    expect(keyring.authenticate(withAuth())).toEqual({ ok: false, reason: 'missing' });
    expect(keyring.authenticate(withAuth('Basic a2V5'))).toEqual({ ok: false, reason: 'missing' });
    expect(keyring.authenticate(withAuth('Bearer key-one-0002'))).toEqual({ ok: false, reason: 'unknown' });
    expect(keyring.authenticate(withAuth('Bearer key-one-00011'))).toEqual({ ok: false, reason: 'unknown' });
  });

  it('refuses no keys, short keys and keys with spaces', () => {
    expect(() => createApiKeyring([])).toThrow();
    expect(() => createApiKeyring(['short'])).toThrow();
    expect(() => createApiKeyring(['has a space in it'])).toThrow();
  });
});

describe('rate limiter', () => {
  it('allows a burst, then refills at the configured rate', () => {
    let now = 0;
    const limiter = createRateLimiter({ requestsPerSecond: 2, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('a').ok)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').ok).toBe(true);
    now += 500;
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
  });
});

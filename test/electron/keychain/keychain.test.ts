// The keychain against a real gnome-keyring on a private D-Bus (test/support/keyring.ts),
// key validation, and what happens when there is no Secret Service at all.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskApiKey, validateApiKey } from '../../../electron/keychain/api-key.ts';
import { accountForBaseUrl, createKeychain, type Keychain } from '../../../electron/keychain/keychain.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';

const KEY = 'vk_live_8f3a9c2e71d04b6aa5e9f0c3d2b1a4e7';
const OTHER_KEY = 'vk_live_0000111122223333444455556666zz99';

describe('validateApiKey', () => {
  it('trims surrounding whitespace and accepts visible ASCII', () => {
    expect(validateApiKey(`  \t${KEY}\r\n`)).toEqual({ ok: true, value: KEY });
    expect(validateApiKey('!"#$%&\'()*+,-./0-9:;<=>?@A-Z[\\]^_`a-z{|}~')).toMatchObject({ ok: true });
  });

  const bad: Array<[string, string, RegExp]> = [
    ['empty', '', /empty/],
    ['only whitespace', ' \n\t ', /empty/],
    ['an inner space', 'abc def-secret-part', /whitespace at position 4/],
    ['an inner line break', 'abcdef\nsecret-part', /whitespace at position 7/],
    ['a no-break space', 'abc\u00a0secret-part', /whitespace/],
    ['a control character', 'abc\u0007secret-part', /control character at position 4/],
    ['DEL', 'abc\u007fsecret-part', /control character/],
    ['a non-ASCII letter', 'abcäsecret-part', /non-ASCII character at position 4/],
    ['an emoji', 'abc😀secret-part', /non-ASCII/],
    ['a zero-width space', 'abc\u200bsecret-part', /non-ASCII/],
    ['too long', 'k'.repeat(4097), /too long/],
  ];
  for (const [label, key, message] of bad) {
    it(`rejects a key with ${label}, without echoing it`, () => {
      const result = validateApiKey(key);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('invalid_api_key');
      expect(result.error.message).toMatch(message);
      if (key.trim().length > 3) {
        expect(result.error.message).not.toContain(key.trim());
        expect(result.error.message).not.toContain('secret-part');
      }
    });
  }

  it('masks all but the last four characters, and all of a short key', () => {
    expect(maskApiKey(KEY)).toBe('••••••••a4e7');
    expect(maskApiKey('short-key')).toBe('••••••••');
  });

  it('uses the origin of a remote service as the account', () => {
    expect(accountForBaseUrl('https://scan.example.com:8443/api/v1')).toBe('https://scan.example.com:8443');
  });
});

describe('createKeychain when keytar cannot be loaded', () => {
  it('returns a clear error and never throws', async () => {
    const keychain = createKeychain({
      service: 'verdict-test',
      loadKeytar: () => Promise.reject(new Error('Cannot find module keytar.node')),
    });
    const set = await keychain.setKey(KEY);
    expect(set).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    if (!set.ok) {
      expect(set.error.message).toMatch(/keytar.*could not be loaded/);
      expect(set.error.message).not.toContain(KEY);
    }
    expect(await keychain.status()).toMatchObject({ isSet: false, masked: null, keychainError: expect.stringMatching(/keytar/) });
  });

  it('scrubs the key from an error message a keychain might produce', async () => {
    const keychain = createKeychain({
      service: 'verdict-test',
      loadKeytar: async () => ({
        getPassword: async () => null,
        setPassword: async (_s, _a, password) => {
          throw new Error(`refused to store ${password}`);
        },
        deletePassword: async () => false,
      }),
    });
    const set = await keychain.setKey(KEY);
    expect(set.ok).toBe(false);
    if (!set.ok) {
      expect(set.error.message).not.toContain(KEY);
      expect(set.error.message).toContain('[key]');
    }
  });

  it('gives up on a keychain that does not answer', async () => {
    const keychain = createKeychain({
      service: 'verdict-test',
      timeoutMs: 50,
      loadKeytar: async () => ({
        getPassword: () => new Promise(() => {}),
        setPassword: () => new Promise(() => {}),
        deletePassword: () => new Promise(() => {}),
      }),
    });
    expect(await keychain.getKey()).toMatchObject({ ok: false, error: { code: 'keychain_unavailable', message: expect.stringMatching(/locked/) } });
  });
});

const canRun = keyringTestsCanRun();

describe.skipIf(!canRun)('createKeychain with a real gnome-keyring', () => {
  let keyring: Keyring;
  let keychain: Keychain;
  const service = `verdict-test-${randomUUID()}`;

  beforeAll(async () => {
    keyring = await startKeyring();
    keychain = createKeychain({ service });
  });
  afterAll(async () => {
    await keychain?.deleteKey();
    await keyring?.stop();
  });

  it('starts with no key', async () => {
    expect(await keychain.getKey()).toEqual({ ok: true, value: null });
    expect(await keychain.status()).toEqual({ isSet: false, masked: null, keychainError: null });
  });

  it('stores a key (trimmed), reads it back and reports it masked', async () => {
    const set = await keychain.setKey(`  ${KEY}\n`);
    expect(set).toEqual({ ok: true, value: { isSet: true, masked: '••••••••a4e7', keychainError: null } });
    expect(await keychain.getKey()).toEqual({ ok: true, value: KEY });
    // A second keychain object (as after a restart) finds it too.
    expect(await createKeychain({ service }).getKey()).toEqual({ ok: true, value: KEY });
  });

  it('replaces a key', async () => {
    expect((await keychain.setKey(OTHER_KEY)).ok).toBe(true);
    expect(await keychain.getKey()).toEqual({ ok: true, value: OTHER_KEY });
    expect(await keychain.status()).toMatchObject({ isSet: true, masked: '••••••••zz99' });
  });

  it('refuses an invalid key and keeps the stored one', async () => {
    const bad = await keychain.setKey('has a space');
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_api_key' } });
    expect(await keychain.getKey()).toEqual({ ok: true, value: OTHER_KEY });
  });

  it('keeps keys for different accounts apart', async () => {
    const account = accountForBaseUrl('https://scan.example.com/api');
    expect((await keychain.setKey(KEY, account)).ok).toBe(true);
    expect(await keychain.getKey(account)).toEqual({ ok: true, value: KEY });
    expect(await keychain.getKey()).toEqual({ ok: true, value: OTHER_KEY });
    expect((await keychain.deleteKey(account)).ok).toBe(true);
    expect(await keychain.getKey(account)).toEqual({ ok: true, value: null });
  });

  it('deletes a key, and deleting again is fine', async () => {
    expect(await keychain.deleteKey()).toEqual({ ok: true, value: { isSet: false, masked: null, keychainError: null } });
    expect(await keychain.getKey()).toEqual({ ok: true, value: null });
    expect((await keychain.deleteKey()).ok).toBe(true);
  });
});

describe('createKeychain without a Secret Service', () => {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'try-keychain.ts');

  /** Runs the fixture in a fresh process with the given bus (libsecret keeps its first connection). */
  const tryInChild = (env: NodeJS.ProcessEnv, home: string) =>
    new Promise<{ set: { ok: boolean; error?: { code: string; message: string } }; get: { ok: boolean }; status: { keychainError: string | null } }>(
      (resolve, reject) => {
        execFile(process.execPath, [script, `verdict-test-${randomUUID()}`, KEY], { env, cwd: home, timeout: 30_000 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`${error.message}\n${stderr}`));
          else resolve(JSON.parse(stdout));
        });
      },
    );

  const cases: Array<[string, (home: string) => NodeJS.ProcessEnv]> = [
    ['the bus address points nowhere', (home) => ({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(home, 'no-such-bus')}` })],
    ['there is no session bus and no display', () => ({})],
  ];
  for (const [label, busEnv] of cases) {
    it(`says what to install when ${label}, and writes nothing to disk`, async () => {
      const home = mkdtempSync(path.join(os.tmpdir(), 'verdict-nokeyring-'));
      try {
        const env: NodeJS.ProcessEnv = {
          PATH: process.env.PATH,
          HOME: home,
          XDG_DATA_HOME: path.join(home, 'data'),
          XDG_CONFIG_HOME: path.join(home, 'config'),
          XDG_RUNTIME_DIR: path.join(home, 'runtime'),
          ...busEnv(home),
        };
        const result = await tryInChild(env, home);
        expect(result.set).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
        expect(result.set.error?.message).toMatch(/No OS keychain available: install and unlock GNOME Keyring or KWallet \(Secret Service\)/);
        expect(result.set.error?.message).not.toContain(KEY);
        expect(result.get.ok).toBe(false);
        expect(result.status.keychainError).toMatch(/GNOME Keyring/);
        // No plain-text fallback anywhere under the child's home.
        const files = listFiles(home);
        for (const f of files) expect(readFileSync(f, 'utf8')).not.toContain(KEY);
        expect(files).toEqual([]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  }
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((p) => statSync(p).isFile());
}

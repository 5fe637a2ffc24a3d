// The local service compares bearer keys in constant time *by construction*
// (issue 7): the presented key and every configured key are reduced to SHA-256
// digests of one fixed length and compared with crypto.timingSafeEqual, once
// per configured key, with no early exit and no other comparison of key
// material. Timing measurements would be flaky here; instead node:crypto is
// wrapped to record every comparison, and the source is checked for shortcuts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type * as Crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const comparisons = vi.hoisted(() => [] as Array<{ a: number; b: number; result: boolean }>);

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      const result = actual.timingSafeEqual(a, b);
      comparisons.push({ a: a.byteLength, b: b.byteLength, result });
      return result;
    },
  };
});

const { createApiKeyring } = await import('../../../electron/local-service/auth/api-keys.ts');

const KEYS = ['first-key-0001', 'second-key-0002', 'third-key-0003'];
const requestWith = (authorization: string | undefined) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

beforeEach(() => {
  comparisons.length = 0;
});

describe('bearer key comparison', () => {
  const keyring = createApiKeyring(KEYS);

  it.each([
    ['the right key (first)', KEYS[0] as string, true],
    ['the right key (last)', KEYS[2] as string, true],
    ['a one-character key', 'x', false],
    ['a prefix of a real key', 'first-key-000', false],
    ['a real key with one more character', 'first-key-00011', false],
    ['a 5,000-character key', 'k'.repeat(5_000), false],
    ['non-ASCII', 'schlüssel-ключ', false],
  ])('%s: one timingSafeEqual per configured key, all on 32-byte digests', (_label, presented, accepted) => {
    const outcome = keyring.authenticate(requestWith(`Bearer ${presented}`));
    expect(outcome.ok).toBe(accepted);
    // Same number of comparisons whether the key matched first, last or never: no early exit.
    expect(comparisons).toHaveLength(KEYS.length);
    for (const { a, b } of comparisons) {
      expect(a).toBe(32);
      expect(b).toBe(32);
    }
    expect(comparisons.filter((c) => c.result)).toHaveLength(accepted ? 1 : 0);
  });

  it('a request without a usable header makes no comparison at all (nothing secret to compare)', () => {
    expect(keyring.authenticate(requestWith(undefined))).toEqual({ ok: false, reason: 'missing' });
    expect(keyring.authenticate(requestWith('Basic abc'))).toEqual({ ok: false, reason: 'missing' });
    expect(comparisons).toHaveLength(0);
  });

  it('the source compares keys only through digests and timingSafeEqual', async () => {
    const source = await readFile(join(import.meta.dirname, '../../../electron/local-service/auth/api-keys.ts'), 'utf8');
    const code = source.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(code).toMatch(/import \{[^}]*\btimingSafeEqual\b[^}]*\} from 'node:crypto'/);
    expect(code).toMatch(/createHash\('sha256'\)/);
    // No direct comparison of the presented value, no lookup by key, no early return inside the loop.
    expect(code).not.toMatch(/match\[1\]\s*[!=]==|[!=]==\s*match\[1\]/);
    expect(code).not.toMatch(/\.(includes|indexOf|has|get)\(\s*match\[1\]/);
    const loop = /for \(const entry of known\) \{([\s\S]*?)\n\s{6}\}/.exec(code)?.[1] ?? '';
    expect(loop).toContain('timingSafeEqual(');
    expect(loop).not.toMatch(/\b(return|break)\b/);
  });
});

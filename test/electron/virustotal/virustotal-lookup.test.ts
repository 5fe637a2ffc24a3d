// VirusTotal by hash through the real core: the key in a private gnome-keyring,
// lookups against a local stand-in for the v3 API (test/support/virustotal-stand-in.ts)
// answering known, unknown (404 NotFoundError), 429 and 401. Only GETs of
// /api/v3/files/<sha256> ever reach it, with no body: nothing is uploaded.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { startVirusTotalStandIn, type VirusTotalStandIn } from '../../support/virustotal-stand-in.ts';
import { tempDir } from '../scans/harness.ts';
import { fakeClock } from './fake-clock.ts';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const WRONG_KEY = 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff';
const KNOWN = 'e'.repeat(64);
const UNKNOWN = '0123456789abcdef'.repeat(4);
const LATER = 'c'.repeat(64);

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let standIn: VirusTotalStandIn;
let dir: Awaited<ReturnType<typeof tempDir>>;
let core: CoreInternals;
const clock = fakeClock();

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  standIn = await startVirusTotalStandIn(KEY);
  standIn.known.set(KNOWN, { malicious: 5, suspicious: 1, undetected: 60, harmless: 4, analysedAt: 1_764_000_000 });
  standIn.known.set(LATER, { malicious: 0, suspicious: 0, undetected: 70, harmless: 0, analysedAt: 1_764_000_000 });
  dir = await tempDir('verdict-virustotal-');
  core = await createCore(
    { dataDir: join(dir.path, 'data'), keychainService: `verdict-vt-test-${randomUUID()}`, localService: { engine: 'builtin' } },
    { watch: false, logLevel: 'warn', schedules: false, virusTotal: { baseUrl: standIn.url, clock } },
  );
});
afterAll(async () => {
  await core?.close();
  await standIn?.close();
  await keyring?.stop();
  await dir?.remove();
});

describe.runIf(canRun)('VirusTotal lookups through the core', () => {
  it('asks nothing without a key', async () => {
    expect(await core.virusTotal.keyStatus()).toEqual({ ok: true, value: { isSet: false, masked: null, keychainError: null } });
    expect(await core.virusTotal.lookup(KNOWN)).toEqual({ ok: true, value: { kind: 'no_key' } });
    expect(standIn.requests).toEqual([]);
  });

  it('keeps the key in the keychain, apart from the scanning service key, and shows it masked', async () => {
    const set = await core.virusTotal.setKey(`  ${KEY}\n`);
    expect(set).toEqual({ ok: true, value: { isSet: true, masked: `••••••••${KEY.slice(-4)}`, keychainError: null } });
    expect(await core.virusTotal.keyStatus()).toEqual(set);
    expect((await core.settings.keyStatus()).ok && (await core.settings.keyStatus())).toMatchObject({ value: { isSet: false } });
    expect(await core.settings.get()).not.toContain(KEY);
    expect(JSON.stringify(await core.settings.get())).not.toContain(KEY.slice(8));
  });

  it('reads the last analysis of a known hash: detections out of engines, and its date', async () => {
    expect(await core.virusTotal.lookup(KNOWN.toUpperCase())).toEqual({
      ok: true,
      value: { kind: 'known', malicious: 5, suspicious: 1, engines: 70, analysedAt: new Date(1_764_000_000_000).toISOString() },
    });
  });

  it('an unknown hash is not known to VirusTotal', async () => {
    expect(await core.virusTotal.lookup(UNKNOWN)).toEqual({ ok: true, value: { kind: 'unknown' } });
  });

  it('answers a hash looked up a moment ago without asking again', async () => {
    const before = standIn.requests.length;
    expect((await core.virusTotal.lookup(KNOWN)).ok).toBe(true);
    expect(standIn.requests.length).toBe(before);
  });

  it('after a 429 it waits its turn and asks again', async () => {
    standIn.answerTooMany(1);
    const before = standIn.requests.length;
    const pending = core.virusTotal.lookup(LATER);
    // The 429 heard: the queue waits for its next turn (a timer on the test's clock).
    await until(() => standIn.requests.length === before + 1 && clock.timers() === 1);
    clock.advance(59_999);
    expect(clock.timers()).toBe(1);
    clock.advance(1);
    expect(clock.timers()).toBe(0);
    expect(await pending).toMatchObject({ ok: true, value: { kind: 'known', malicious: 0, engines: 70 } });
    expect(standIn.requests.length).toBe(before + 2);
  });

  it('a refused key (401) says so', async () => {
    expect((await core.virusTotal.setKey(WRONG_KEY)).ok).toBe(true);
    clock.advance(60_000);
    expect(await core.virusTotal.lookup('d'.repeat(64))).toEqual({ ok: true, value: { kind: 'key_refused' } });
    expect(standIn.requests.at(-1)?.keyAccepted).toBe(false);
  });

  it('refuses what is not a SHA-256, and asks nothing once the key is removed', async () => {
    expect(await core.virusTotal.lookup('not-a-hash')).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await core.virusTotal.clearKey()).toEqual({ ok: true, value: { isSet: false, masked: null, keychainError: null } });
    const before = standIn.requests.length;
    expect(await core.virusTotal.lookup('b'.repeat(64))).toEqual({ ok: true, value: { kind: 'no_key' } });
    expect(standIn.requests.length).toBe(before);
  });

  it('never uploads: every request was a GET of /api/v3/files/<sha256> without a body', () => {
    expect(standIn.requests.length).toBeGreaterThanOrEqual(5);
    for (const request of standIn.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toMatch(/^\/api\/v3\/files\/[0-9a-f]{64}$/);
      expect(request.bodyBytes).toBe(0);
    }
  });
});

/** Waits for the stand-in to have heard a request (no time limit of its own: vitest's applies). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

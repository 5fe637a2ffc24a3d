// `verdict lookup` as a user runs it (node bin/verdict.mjs lookup …), with the VirusTotal key in
// a private gnome-keyring and a local stand-in for the v3 API (test/support/virustotal-stand-in.ts,
// named to the child by VERDICT_VIRUSTOTAL_URL): files (one named by bytes that are not UTF-8) and
// hashes, known, unknown, 401, no key, bad arguments, German, and the key in no output. 429 and
// the 4-a-minute window wait on a clock: those runs are in this process, on a clock the test moves.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTarget } from '../../../electron/cli/lookup-args.ts';
import { runLookup } from '../../../electron/cli/lookup.ts';
import { createKeychain } from '../../../electron/keychain/keychain.ts';
import { createSecretList } from '../../../electron/logging/logger.ts';
import { VIRUSTOTAL_ACCOUNT } from '../../../electron/virustotal/virustotal.ts';
import { bytesOf, shellWord, writeByteName } from '../../support/byte-names.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { startVirusTotalStandIn, type VirusTotalStandIn } from '../../support/virustotal-stand-in.ts';
import { fakeClock } from '../virustotal/fake-clock.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** Canaries: a key with characters URL- and base64-encoding change. */
const KEY = 'vt_LEAK+CANARY/lookup=0123456789abcdef';
const WRONG_KEY = 'vt_LEAK+CANARY/refused=0123456789';
const UNKNOWN = '0123456789abcdef'.repeat(4);
const ANALYSED = 1_764_000_000; // 2025-11-24 16:00 UTC
const SERVICE = `verdict-lookup-test-${process.pid}`;

const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');
const lines = (text: string) => text.split('\n').filter(Boolean);

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let standIn: VirusTotalStandIn;
let dir: Awaited<ReturnType<typeof tempDir>>;
let files: { detected: string; clean: string; unknown: string; bytes: string };
const printed: string[] = [];

const keychain = () => createKeychain({ service: SERVICE });
const setKey = async (key: string) => expect((await keychain().setKey(key, VIRUSTOTAL_ACCOUNT)).ok).toBe(true);

/** `verdict lookup …` from a shell (which alone hands over a name's exact bytes), English unless `lang` says. */
async function lookup(args: string[], lang = 'en_US.UTF-8', env: Record<string, string> = {}): Promise<ChildRun> {
  const script = `exec "$0" bin/verdict.mjs lookup --data-dir "$1" ${args.map(shellWord).join(' ')}`;
  const run = await runNode(['-c', script, process.execPath, join(dir.path, 'data')], {
    node: '/bin/sh',
    cwd: ROOT,
    env: { LANG: lang, LC_ALL: '', LC_MESSAGES: '', VERDICT_KEYCHAIN_SERVICE: SERVICE, VERDICT_VIRUSTOTAL_URL: standIn.url, ...env },
    timeoutMs: 60_000,
  });
  printed.push(run.stdout, run.stderr);
  return run;
}

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  standIn = await startVirusTotalStandIn(KEY);
  dir = await tempDir('verdict-lookup-cli-');
  const folder = join(dir.path, 'files');
  await mkdir(folder);
  files = { detected: join(folder, 'dropper.exe'), clean: join(folder, 'notes.txt'), unknown: join(folder, 'new file.bin'), bytes: '' };
  await writeFile(files.detected, 'pretend dropper\n');
  await writeFile(files.clean, 'just notes\n');
  await writeFile(files.unknown, 'never submitted\n');
  files.bytes = writeByteName(folder, bytesOf('caf\xe9.exe'), 'pretend dropper\n');
  standIn.known.set(sha256('pretend dropper\n'), { malicious: 5, suspicious: 1, undetected: 60, harmless: 4, analysedAt: ANALYSED });
  standIn.known.set(sha256('just notes\n'), { malicious: 0, suspicious: 0, undetected: 70, harmless: 2, analysedAt: ANALYSED });
});
afterAll(async () => {
  await standIn?.close();
  await keyring?.stop();
  await dir?.remove();
});

describe('lookup arguments', () => {
  it('64 hexadecimal digits, in any case, are a SHA-256 (lowercased); anything else is a path to check on disk', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-fA-F]{64}$/), (hex) => {
        expect(readTarget(hex)).toEqual({ kind: 'hash', argument: hex, sha256: hex.toLowerCase() });
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }).filter((text) => !/^[0-9a-fA-F]{64}$/.test(text)),
        (text) => {
          expect(readTarget(text)).toEqual(text === '' ? { kind: 'empty' } : { kind: 'file', argument: text, path: text });
        },
      ),
    );
  });
});

describe.runIf(canRun)('verdict lookup', () => {
  it('without a key: each SHA-256 and its VirusTotal link, where to add a key, nothing sent, exit 3', async () => {
    const run = await lookup([files.clean, UNKNOWN.toUpperCase()]);
    expect(run.code, run.stderr).toBe(3);
    expect(lines(run.stdout)).toEqual([
      files.clean,
      `  SHA-256 ${sha256('just notes\n')}`,
      `  https://www.virustotal.com/gui/file/${sha256('just notes\n')}`,
      UNKNOWN,
      `  https://www.virustotal.com/gui/file/${UNKNOWN}`,
    ]);
    expect(run.stderr).toContain("add your key in Verdict's window (Settings › VirusTotal)");
    expect(standIn.requests).toEqual([]);
  });

  it('bad arguments: each named, nothing read or sent, exit 2', async () => {
    const run = await lookup(['missing.exe', 'abcdef0123456789abcdef0123456789abcdef01', dir.path, '']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([
      'missing.exe: no such file, and not a SHA-256 (64 hexadecimal digits).',
      'abcdef0123456789abcdef0123456789abcdef01 is 40 hexadecimal digits (a SHA-1?) and no file: a SHA-256 has 64. Give the file, or its SHA-256.',
      `${dir.path} is not a file (a folder or a device): verdict lookup takes files and SHA-256 hashes.`,
      'An empty argument names no file and is not a SHA-256.',
    ]);
    expect(standIn.requests).toEqual([]);
    expect((await lookup([])).code).toBe(2);
  });

  it('with the key: detections out of engines and the date, not known to VirusTotal; a file named by bytes; exit 1 when engines detect one', async () => {
    await setKey(KEY);
    const run = await lookup([files.bytes, files.clean, files.unknown]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('');
    expect(lines(run.stdout)).toEqual([
      `${dir.path}/files/caf⟨0xE9⟩.exe`,
      `  SHA-256 ${sha256('pretend dropper\n')}`,
      `  https://www.virustotal.com/gui/file/${sha256('pretend dropper\n')}`,
      '  VirusTotal: 5 of 70 engines detect it, 1 more find it suspicious (last analysis 2025-11-24 16:00 UTC)',
      files.clean,
      `  SHA-256 ${sha256('just notes\n')}`,
      `  https://www.virustotal.com/gui/file/${sha256('just notes\n')}`,
      '  VirusTotal: 0 of 72 engines detect it (last analysis 2025-11-24 16:00 UTC)',
      files.unknown,
      `  SHA-256 ${sha256('never submitted\n')}`,
      `  https://www.virustotal.com/gui/file/${sha256('never submitted\n')}`,
      '  VirusTotal: not known to VirusTotal (no one has submitted this file; that says nothing about whether it is safe)',
    ]);
    // Clean and unknown alone: exit 0.
    expect((await lookup([files.clean, UNKNOWN])).code).toBe(0);
  });

  it('--json: one object per argument', async () => {
    const run = await lookup(['--json', files.detected, UNKNOWN]);
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run.stdout).map((line) => JSON.parse(line))).toEqual([
      {
        argument: files.detected,
        file: files.detected,
        sha256: sha256('pretend dropper\n'),
        url: `https://www.virustotal.com/gui/file/${sha256('pretend dropper\n')}`,
        virusTotal: { kind: 'known', malicious: 5, suspicious: 1, engines: 70, analysedAt: '2025-11-24T16:00:00.000Z' },
        error: null,
      },
      { argument: UNKNOWN, file: null, sha256: UNKNOWN, url: `https://www.virustotal.com/gui/file/${UNKNOWN}`, virusTotal: { kind: 'unknown' }, error: null },
    ]);
  });

  it('German', async () => {
    const run = await lookup([files.detected, UNKNOWN], 'de_DE.UTF-8');
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('  VirusTotal: 5 von 70 Engines erkennen sie, 1 weitere halten sie für verdächtig (letzte Analyse 2025-11-24 16:00 UTC)\n');
    expect(run.stdout).toContain('  VirusTotal: VirusTotal nicht bekannt (niemand hat diese Datei eingereicht');
    const bad = await lookup(['fehlt.exe'], 'de_DE.UTF-8');
    expect(bad.stderr).toBe('fehlt.exe: keine solche Datei, und kein SHA-256 (64 Hexadezimalziffern).\n');
  });

  it('the key goes to VirusTotal or a stand-in on loopback, nowhere else', async () => {
    const before = standIn.requests.length;
    const run = await lookup([UNKNOWN], 'en_US.UTF-8', { VERDICT_VIRUSTOTAL_URL: 'http://192.0.2.1:8080' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('VERDICT_VIRUSTOTAL_URL is for tests: it must name a stand-in on this computer (http://127.0.0.1:PORT).\n');
    expect(standIn.requests.length).toBe(before);
  });

  it('a refused key (401) says so, exit 2', async () => {
    await setKey(WRONG_KEY);
    const before = standIn.requests.length;
    const run = await lookup([UNKNOWN, files.clean]);
    expect(run.code).toBe(2);
    expect(lines(run.stdout).filter((line) => line.includes('VirusTotal'))).toEqual([
      '  VirusTotal refused your API key (HTTP 401): check it, or replace it in Settings › VirusTotal.',
      '  VirusTotal refused your API key (HTTP 401): check it, or replace it in Settings › VirusTotal.',
    ]);
    // Asked once: every lookup after it would be refused too.
    expect(standIn.requests.slice(before).map((request) => request.keyAccepted)).toEqual([false]);
    await setKey(KEY);
  });

  it('after a 429 it waits its turn and asks again; three in a row are the quota, exit 2', async () => {
    const clock = fakeClock();
    standIn.answerTooMany(1);
    const before = standIn.requests.length;
    const first = inProcess([UNKNOWN], clock);
    await until(() => clock.timers() === 1);
    expect(standIn.requests.length).toBe(before + 1);
    clock.advance(60_000);
    const answered = await first;
    expect(answered.code).toBe(0);
    expect(answered.stderr).toEqual(['VirusTotal answered 429 (too many lookups, 1 of 3): waiting for its turn to ask again…']);
    expect(answered.stdout.at(-1)).toMatch(/not known to VirusTotal/);

    standIn.answerTooMany(3);
    const quota = inProcess(['d'.repeat(64), 'e'.repeat(64)], clock);
    for (let n = 0; n < 2; n++) {
      await until(() => clock.timers() === 1);
      clock.advance(60_000);
    }
    const refused = await quota;
    expect(refused.code).toBe(2);
    const used = '  VirusTotal kept answering 429: your key has used up its lookups for now (the free API allows 4 a minute and 500 a day). Try again later.';
    // The second hash is not asked: the quota is used up for it too.
    expect(refused.stdout.filter((line) => line.includes('VirusTotal kept'))).toEqual([used, used]);
    expect(standIn.requests.length).toBe(before + 2 + 3);
  });

  it('the free API’s 4 lookups a minute: a fifth hash waits its turn', async () => {
    const clock = fakeClock();
    const before = standIn.requests.length;
    const hashes = ['1', '2', '3', '4', '5'].map((digit) => digit.repeat(64));
    const run = inProcess(hashes, clock);
    await until(() => clock.timers() === 1);
    expect(standIn.requests.length).toBe(before + 4);
    clock.advance(59_999);
    expect(standIn.requests.length).toBe(before + 4);
    clock.advance(1);
    const done = await run;
    expect(done.code).toBe(0);
    expect(standIn.requests.length).toBe(before + 5);
    expect(done.stderr).toEqual([expect.stringMatching(/^Waiting until \d\d:\d\d:\d\d: the free VirusTotal API allows 4 lookups a minute…$/)]);
  });

  it('never uploads, and the key is in no output', () => {
    expect(standIn.requests.length).toBeGreaterThanOrEqual(10);
    for (const request of standIn.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toMatch(/^\/api\/v3\/files\/[0-9a-f]{64}$/);
      expect(request.bodyBytes).toBe(0);
    }
    const all = printed.join('\n');
    for (const key of [KEY, WRONG_KEY]) {
      for (const form of [key, 'LEAK+CANARY', encodeURIComponent(key), Buffer.from(key).toString('base64'), Buffer.from(key).toString('hex')]) expect(all).not.toContain(form);
    }
  });
});

/** The same command in this process, on the test's clock (a 429's pause and the 4-a-minute window are a minute). */
async function inProcess(args: string[], clock: ReturnType<typeof fakeClock>): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io = { stdout: (line: string) => stdout.push(line), stderr: (line: string) => stderr.push(line), env: { ...process.env, LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '', VERDICT_KEYCHAIN_SERVICE: SERVICE }, secrets: createSecretList() };
  const code = await runLookup(['--data-dir', join(dir.path, 'data'), ...args], io, { baseUrl: standIn.url, clock });
  printed.push(...stdout, ...stderr);
  return { code, stdout, stderr };
}

/** Waits for the lookup to reach a point (no time limit of its own: vitest's applies). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

// The API key never leaks (issue 7): a full session with a known key against a
// real local service used as the remote backend — the key set through
// settings.setApiKey (a private, real gnome-keyring), a wrong key first (401,
// the queue waits), then the right one; clean and EICAR scans, test connection,
// settings changes, history exports, the scan CLI with VERDICT_API_KEY, a VirusTotal
// key (refused by a stand-in for its v3 API, then accepted) and its lookups — and
// then every file under the data dirs (SQLite files, WAL, logs, exports), every
// event and every Result the core gave, everything written to stdout/stderr,
// and every error message is searched for the key and its encodings.
// Also: an uncaught exception and an unhandled rejection carrying the key, in a
// child process with the Electron shell's crash logging installed, and in the scan CLI.
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { startLocalService, type LocalService } from '../../../electron/local-service/server.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../support/keyring.ts';
import { startVirusTotalStandIn, type VirusTotalStandIn } from '../../support/virustotal-stand-in.ts';
import { tempDir } from '../scans/harness.ts';
import { isTerminal, records, until, waitForBatch } from './pipeline-kit.ts';

const KEY = 'sk_test_LEAKCANARY_0123456789';
/** A second canary with characters that URL- and base64-encoding change. */
const WRONG_KEY = 'sk_test_LEAK+CANARY/wrong=0123456789';
const CLI = join(import.meta.dirname, '../../../electron/cli/scan.ts');
const CRASH_CHILD = join(import.meta.dirname, 'fixtures', 'crash-logging-child.ts');
const FAIL_WITH_KEY = join(import.meta.dirname, 'fixtures', 'fail-with-key.ts');

/** The key as raw text and in the encodings a careless program would write it in. */
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>([
    secret,
    secret.slice(8), // without the `sk_test_` prefix: catches truncated copies
    encodeURIComponent(secret),
    encodeURI(secret),
    bytes.toString('hex'),
    Buffer.from(secret, 'utf16le').toString('latin1'),
    JSON.stringify(secret).slice(1, -1),
  ]);
  // Base64 of the key inside a longer text: three alignments, without the characters that depend on the neighbours.
  for (const shift of [0, 1, 2]) {
    const padded = Buffer.concat([Buffer.alloc(shift, 0x41), bytes]);
    for (const encoding of ['base64', 'base64url'] as const) {
      const encoded = padded.toString(encoding).replace(/=+$/, '');
      const start = Math.ceil((shift * 4) / 3) + (shift > 0 ? 1 : 0);
      out.add(encoded.slice(start, encoded.length - 2));
    }
  }
  return [...out].filter((form) => form.length >= 8);
}
/** The VirusTotal key (issue 29 §4), right and refused: a 64-hex key like VirusTotal's, and one with characters encodings change. */
const VT_KEY = 'f00dcafe0badc0de5eedfeed1eafbead00112233445566778899aabbccddeeff';
const VT_WRONG_KEY = 'vt_LEAK+CANARY/refused=0123456789';
const NEEDLES = [...forms(KEY), ...forms(WRONG_KEY), ...forms(VT_KEY), ...forms(VT_WRONG_KEY)];

function findLeaks(where: string, content: Buffer | string): string[] {
  const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return NEEDLES.filter((needle) => buffer.includes(Buffer.from(needle, 'latin1')) || buffer.includes(Buffer.from(needle, 'utf8'))).map(
    (needle) => `${where}: ${JSON.stringify(needle)}`,
  );
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let dir: Awaited<ReturnType<typeof tempDir>>;
let service: LocalService;
let virusTotal: VirusTotalStandIn;
const serviceLog: string[] = [];

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  dir = await tempDir('verdict-reliability-secrets-');
  virusTotal = await startVirusTotalStandIn(VT_KEY);
  virusTotal.known.set('e'.repeat(64), { malicious: 1, suspicious: 0, undetected: 69, harmless: 0, analysedAt: 1_764_000_000 });
  const line = (level: string) => (fields: unknown, message?: string) => serviceLog.push(`${level} ${JSON.stringify(fields)} ${message ?? ''}`);
  service = await startLocalService({
    apiKeys: [KEY],
    dataDir: join(dir.path, 'service'),
    engine: { kind: 'builtin' },
    logger: { info: line('info'), warn: line('warn'), error: line('error') },
  });
});
afterAll(async () => {
  await service?.close();
  await virusTotal?.close();
  await keyring?.stop();
  await dir?.remove();
});

describe.runIf(canRun)('a full session with a known API key', () => {
  it('leaves no trace of the key in files, events, results, output or error messages', async () => {
    const dataDir = join(dir.path, 'data');
    const keychainService = `verdict-leak-test-${process.pid}`;
    const seen: unknown[] = [];
    const output: string[] = [];
    // Everything this process prints while the core runs.
    const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      output.push(String(chunk));
      return (writes.out as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      output.push(String(chunk));
      return (writes.err as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;

    let core: CoreInternals | null = null;
    try {
      core = await createCore({ dataDir, keychainService }, { watch: false, logLevel: 'debug', poll: { initialDelayMs: 50, maxDelayMs: 300 }, retryBaseMs: 50, retryMaxMs: 300, virusTotal: { baseUrl: virusTotal.url } });
      const c = core;
      c.onEvent((event) => seen.push(event));
      c.watch.onChange((statuses) => seen.push(statuses));
      /** Every Result the core gives is kept for the search. */
      const call = async <T>(result: Promise<T>): Promise<T> => {
        const value = await result;
        seen.push(value);
        return value;
      };

      // Remote uploads without asking each time (the user's choice in the settings).
            await call(c.settings.update({ backend: { kind: 'remote', baseUrl: service.url }, confirmRemoteUploads: false }));
      // Keys that are refused: the messages must not quote them.
      for (const bad of [`${KEY} trailing`, `${KEY}\u00e9`, `${KEY}\n${KEY}`]) {
        const refused = await call(c.settings.setApiKey(bad));
        expect(refused.ok).toBe(false);
      }
      // The wrong key first: 401, the queue waits.
      await call(c.settings.setApiKey(WRONG_KEY));
      const firstTest = await call(c.settings.testConnection());
      expect(firstTest).toMatchObject({ ok: true, value: { authorized: false } });
      await writeFile(join(dir.path, 'clean.txt'), 'nothing to see here\n');
      await writeFile(join(dir.path, 'eicar.com'), EICAR_TEST_STRING);
      const submitted = await call(c.submit([join(dir.path, 'clean.txt'), join(dir.path, 'eicar.com')], { origin: 'drop' }));
      if (!submitted.ok) throw new Error(submitted.error.message);
      const ids = submitted.value.ids;
      await until(async () => (await records(c, ids)).every((r) => r.pendingReason === 'awaiting_api_key'), 'the queue to wait for a key');
      await call(c.settings.keyStatus());

      // The right key: the queue goes on.
      await call(c.settings.setApiKey(KEY));
      const done = await waitForBatch(c, ids);
      expect(done.map((r) => [r.fileName, r.status, r.safe])).toEqual([
        ['clean.txt', 'completed', true],
        ['eicar.com', 'completed', false],
      ]);
      expect(await call(c.settings.testConnection())).toMatchObject({ ok: true, value: { authorized: true } });

      // Settings changes, reads, a rescan, and the read side of the API.
      await call(c.settings.update({ language: 'de' }));
      await call(c.settings.update({ mode: 'async', reuseVerdictDays: 0 }));
      await call(c.settings.get());
      await call(c.settings.keyStatus());
      const rescan = await call(c.scans.rescan(ids[0] as string));
      expect(rescan.ok).toBe(true);
      const nothingPending = async () => {
        const counts = await c.scans.counts();
        return counts.ok && counts.value.queued + counts.value.uploading + counts.value.processing === 0;
      };
      await until(nothingPending, 'the rescan to finish');
      await call(c.scans.list({ limit: 100 }));
      for (const id of ids) await call(c.scans.get(id));
      await call(c.scans.counts());
      await call(c.watch.list());
      // A revoked key while scans are followed, then a remote that cannot be reached: more error paths.
      await call(c.settings.setApiKey(WRONG_KEY));
      await writeFile(join(dir.path, 'late.txt'), 'late\n');
      const late = await call(c.submit([join(dir.path, 'late.txt')], { origin: 'drop' }));
      if (late.ok) await until(async () => (await records(c, late.value.ids)).every((r) => isTerminal(r) || r.pendingReason !== null), 'the late file to wait');
      await call(c.settings.update({ backend: { kind: 'remote', baseUrl: 'http://127.0.0.1:9' } }));
      await call(c.settings.setApiKey(KEY));
      await call(c.settings.testConnection());
      await call(c.settings.update({ backend: { kind: 'remote', baseUrl: service.url } }));
      // Keys are kept per service origin: this one still has the wrong key until it is replaced.
      await call(c.settings.setApiKey(KEY));
      await call(c.settings.testConnection());
      if (late.ok) await waitForBatch(c, late.value.ids);
      await call(c.settings.clearApiKey());
      await call(c.settings.keyStatus());

      // VirusTotal: keys refused by the checks, one refused by VirusTotal (401), then the right one.
      for (const bad of [`${VT_KEY} trailing`, `${VT_KEY}\u00e9`]) expect((await call(c.virusTotal.setKey(bad))).ok).toBe(false);
      await call(c.virusTotal.setKey(VT_WRONG_KEY));
      expect(await call(c.virusTotal.lookup('d'.repeat(64)))).toEqual({ ok: true, value: { kind: 'key_refused' } });
      await call(c.virusTotal.setKey(VT_KEY));
      await call(c.virusTotal.keyStatus());
      expect(await call(c.virusTotal.lookup('e'.repeat(64)))).toMatchObject({ ok: true, value: { kind: 'known', malicious: 1 } });
      expect(await call(c.virusTotal.lookup('0'.repeat(64)))).toEqual({ ok: true, value: { kind: 'unknown' } });
      await call(c.virusTotal.lookup('not a hash'));
      await call(c.virusTotal.clearKey());
      // Both keys did reach VirusTotal's stand-in, in the header only.
      expect(virusTotal.requests.map((r) => r.keyAccepted)).toEqual([false, true, true]);
    } finally {
      await core?.close();
      process.stdout.write = writes.out;
      process.stderr.write = writes.err;
    }

    // History exports, as a user would make them.
    const history = openHistory(dataDir);
    try {
      await history.exportCsv(join(dataDir, 'export.csv'));
      await history.exportJson(join(dataDir, 'export.json'));
    } finally {
      history.close();
    }

    // The scan CLI with the key in VERDICT_API_KEY (right and wrong): its output and its files.
    const cliDataDir = join(dir.path, 'cli-data');
    const cliRuns = [];
    for (const key of [KEY, WRONG_KEY]) {
      cliRuns.push(await runCli(['--json', '--force', '--data-dir', cliDataDir, '--service', service.url, join(dir.path, 'clean.txt'), join(dir.path, 'eicar.com')], { VERDICT_API_KEY: key }));
    }
    expect(cliRuns[0]?.code).toBe(1); // EICAR found
    expect(cliRuns[1]?.code).toBe(2); // the wrong key: not scanned

    const leaks: string[] = [];
    const files = [...(await filesUnder(dataDir)), ...(await filesUnder(cliDataDir)), ...(await filesUnder(join(dir.path, 'service')))];
    expect(files.some((f) => f.endsWith('history.sqlite'))).toBe(true);
    expect(files.some((f) => f.endsWith('.log'))).toBe(true);
    for (const file of files) leaks.push(...findLeaks(file, await readFile(file)));
    leaks.push(...findLeaks('events and results', JSON.stringify(seen)));
    leaks.push(...findLeaks('error messages', seen.flatMap((value) => errorMessages(value)).join('\n')));
    leaks.push(...findLeaks('stdout/stderr of this process', output.join('')));
    leaks.push(...findLeaks('service log', serviceLog.join('\n')));
    for (const [i, run] of cliRuns.entries()) leaks.push(...findLeaks(`CLI run ${i + 1} output`, run.output));
    console.log(`searched ${files.length} files, ${seen.length} events/results, ${output.length} writes to stdout/stderr, ${NEEDLES.length} forms of 4 keys`);
    expect(leaks).toEqual([]);
    // The search itself works: the needles are found where the key is.
    expect(findLeaks('self-check', `x${Buffer.from(`..${KEY}..`).toString('base64')}y`).length).toBeGreaterThan(0);
    expect(findLeaks('self-check', encodeURIComponent(WRONG_KEY)).length).toBeGreaterThan(0);
  });
});

// Needs no keyring: the shell's logger and crash handlers only (electron/shell/logging.ts, electron faked).
describe('an error nothing caught, with the key in its message', () => {
  let crashDir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    crashDir = await tempDir('verdict-reliability-crash-log-');
  });
  afterAll(async () => {
    await crashDir?.remove();
  });

  it.each([
    ['an uncaught exception', 'exception', { code: 1, line: 'uncaught exception', survives: false }],
    ['an unhandled rejection', 'rejection', { code: 0, line: 'unhandled promise rejection', survives: true }],
  ] as const)('%s: logged scrubbed, printed nowhere', async (_label, fail, expected) => {
    const logDir = join(crashDir.path, fail);
    const run = await runNode(CRASH_CHILD, [], { CHILD_LOG_DIR: logDir, CHILD_KEY: KEY, CHILD_FAIL: fail });
    const log = await readFile(join(logDir, 'main.log'), 'utf8');
    // The failure happened and was handled as designed: an exception ends the process with 1, a rejection is only logged.
    expect(run.code).toBe(expected.code);
    expect(run.output.includes('survived')).toBe(expected.survives);
    // The log holds the error, with the key replaced where it stood.
    const entry = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; err?: { message?: string } })
      .find((line) => line.msg === expected.line);
    expect(entry?.err?.message).toBe('The service refused the key [redacted] (Authorization: Bearer [redacted])');
    if (fail === 'exception') expect(run.output).toContain('Verdict stopped after an unexpected error. The details are in');
    expect([...findLeaks(`${fail}: stdout/stderr`, run.output), ...findLeaks(`${fail}: main.log`, log)]).toEqual([]);
  });

  it.each(['exception', 'rejection'])('the scan CLI, an unhandled %s: one scrubbed line, exit 2 (not 1, which means a threat)', async (fail) => {
    const file = join(crashDir.path, 'cli-file.txt');
    await writeFile(file, 'scanned by a CLI that fails\n');
    const cliDataDir = join(crashDir.path, `cli-${fail}`);
    // A service that is never reached: the failure comes first.
    const run = await runNode(CLI, ['--data-dir', cliDataDir, '--service', 'http://127.0.0.1:9', file], { VERDICT_API_KEY: KEY, CHILD_FAIL: fail }, ['--import', FAIL_WITH_KEY]);
    expect(run.output).toContain('Stopped by an unexpected error: The service refused the key [redacted] (Authorization: Bearer [redacted])');
    expect(run.code).toBe(2);
    const leaks = findLeaks(`CLI ${fail}: stdout/stderr`, run.output);
    for (const path of await filesUnder(cliDataDir)) leaks.push(...findLeaks(path, await readFile(path)));
    expect(leaks).toEqual([]);
  });
});

function errorMessages(value: unknown): string[] {
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.ok === false && record.error && typeof record.error === 'object') return [String((record.error as { message?: unknown }).message)];
  }
  return [];
}

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return runNode(CLI, args, env);
}

function runNode(script: string, args: string[], env: Record<string, string>, nodeOptions: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// `verdict update` for real: the real freshclam against a mirror this test serves on
// loopback (the official databases excluded, since none can be signed offline, and a
// custom database that knows EICAR), then `status` and `scan` on that data folder; a
// mirror that has nothing; bad arguments; and every command `status` recommends, in
// English and German, is one `verdict` has.
import { createServer, type Server } from 'node:http';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTECTION_ACTIONS, type ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { COMMAND_NAMES } from '../../../electron/cli/commands.ts';
import { statusLines } from '../../../electron/cli/status.ts';
import { findClamd, findFreshclam } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { protectionActionText } from '../../../electron/engine/protection-text.ts';
import { EICAR_TEST_STRING, tempDir, writeEicar } from '../scans/harness.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');
const clamd = findClamd();
const freshclam = findFreshclam(clamd);
if ((freshclam === null || clamd === null) && process.env.CI) throw new Error('freshclam and clamd must be installed in CI (clamav-freshclam, clamav-daemon)');

const EICAR_NDB = `Verdict-Mirror-Eicar:0:*:${Buffer.from(EICAR_TEST_STRING, 'latin1').toString('hex')}\n`;

function verdict(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode([BIN, ...args], { cwd: ROOT, env: { LANG: 'en_US.UTF-8', LC_ALL: '', VERDICT_KEYCHAIN_SERVICE: `verdict-update-test-${process.pid}`, ...env } });
}

/** A mirror on loopback: serves `files` by name (304 when freshclam has them already), 404 for everything else. */
async function serveMirror(files: Record<string, string>): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const lastModified = new Date(Date.now() - 3_600_000).toUTCString();
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const body = files[(request.url ?? '').replace(/^\//, '')];
    if (body === undefined) response.writeHead(404).end();
    else if (request.headers['if-modified-since'] === lastModified) response.writeHead(304).end();
    else response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': Buffer.byteLength(body), 'last-modified': lastModified }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let dataDir: string;
let mirror: Awaited<ReturnType<typeof serveMirror>> | null = null;
beforeEach(async () => {
  dir = await tempDir('verdict-update-');
  dataDir = join(dir.path, 'data');
  await mkdir(dataDir);
});
afterEach(async () => {
  if (mirror) await new Promise((resolve) => mirror?.server.close(resolve));
  mirror = null;
  await dir.remove();
});

describe.skipIf(freshclam === null || clamd === null)('verdict update with the real freshclam and a mirror served here', () => {
  it('a fresh machine: status names `verdict update`; update exits 0 with its sentence and fills the folder; then status runs ClamAV and scan detects EICAR', async () => {
    mirror = await serveMirror({ 'verdict-mirror.ndb': EICAR_NDB });
    await writeFile(
      join(dataDir, 'freshclam-extra.conf'),
      ['# the official databases cannot be signed offline', `PrivateMirror ${mirror.url}`, 'ExcludeDatabase daily', 'ExcludeDatabase main', 'ExcludeDatabase bytecode', `DatabaseCustomURL ${mirror.url}/verdict-mirror.ndb`, 'DatabaseDirectory /tmp/not-here', ''].join('\n'),
    );
    const before = await verdict(['status', '--data-dir', dataDir]);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('Protection: limited\n');
    expect(before.stdout).toContain('What to do: Get the signatures: `verdict update` downloads them');

    const update = await verdict(['update', '--data-dir', dataDir]);
    expect(update.code, update.stderr).toBe(0);
    const db = join(dataDir, 'clamav-db');
    expect(update.stdout).toContain(`The signatures are current: freshclam updated Verdict's folder ${db}.\nfreshclam said:\n  verdict-mirror.ndb updated (version: custom database, sigs: 1)\n`);
    // Progress on stderr as it goes: Verdict's first line, then freshclam's, indented; DatabaseDirectory stays Verdict's.
    expect(update.stderr).toMatch(/^Updating the signatures in Verdict's own folder .*clamav-db with freshclam…\n/);
    expect(update.stderr).toContain('  Database test passed.');
    expect(update.stderr).toContain('Verdict ignores DatabaseDirectory in freshclam-extra.conf');
    expect(mirror.requests).toContain('/verdict-mirror.ndb');
    expect((await readdir(db)).sort()).toEqual(['freshclam.dat', 'verdict-mirror.ndb']);

    // A second run: nothing new, still exit 0.
    const again = await verdict(['update', '--data-dir', dataDir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`The signatures are current: Verdict's folder ${db} was already up to date.`);

    // Verdict's own clamd now loads that folder. Custom signatures carry no date, so
    // the state is "outdated" (the only dated ones are the official, unreachable offline).
    const after = await verdict(['status', '--json', '--data-dir', dataDir]);
    expect(JSON.parse(after.stdout)).toMatchObject({ state: 'outdated', engine: { name: 'clamav', source: 'own' } });
    const eicar = await writeEicar(join(dir.path, 'eicar.com'));
    const scan = await verdict(['scan', '--json', '--data-dir', dataDir, eicar]);
    expect(scan.code, scan.stderr).toBe(1);
    expect(JSON.parse(scan.stdout)).toMatchObject({ path: eicar, safe: false });
    expect(scan.stdout).toContain('Verdict-Mirror-Eicar');
  }, 120_000);

  it('a mirror that has no signatures: exit 1, Verdict\'s sentence and freshclam\'s errors; German when the system speaks it', async () => {
    mirror = await serveMirror({});
    await writeFile(join(dataDir, 'freshclam-extra.conf'), `PrivateMirror ${mirror.url}\nMaxAttempts 1\n`);
    const run = await verdict(['update', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('The signatures could not be updated: freshclam could not get them from the mirror.');
    expect(run.stderr).toMatch(/freshclam said:\n(?: {2}.*\n)*? {2}ERROR: .*daily/);
    expect(mirror.requests.length).toBeGreaterThan(0);

    const german = await verdict(['update', '--data-dir', dataDir], { LANG: 'de_DE.UTF-8' });
    expect(german.code).toBe(1);
    expect(german.stderr).toContain('Die Signaturen konnten nicht aktualisiert werden: freshclam konnte sie nicht vom Spiegelserver holen.');
    expect(german.stderr).toContain('freshclam sagte:');
  }, 120_000);
});

describe('verdict update: bad arguments', () => {
  it('exits 2 with the usage for an unknown option, a stray word or an empty --data-dir; --help exits 0', async () => {
    for (const args of [['--nope'], ['somewhere'], ['--data-dir', ' ']]) {
      const run = await verdict(['update', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: verdict update');
    }
    const help = await verdict(['update', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 the signatures are current; 1 the update failed; 2 bad arguments.');
  });
});

describe('what `status` recommends exists', () => {
  const statusWith = (action: ProtectionStatus['action']): ProtectionStatus => ({
    state: 'limited',
    reason: { code: 'database_not_found', params: { tried: '/x' } },
    action,
    engine: { name: 'clamav', source: 'own', where: 'unix:/x/clamd.sock', version: '1.4.6', signatures: null },
    streamLimit: null,
  });
  /** `verdict <word>` and `npm run -s <word>` wherever the text names them. */
  const commandsIn = (text: string) => [...text.matchAll(/\bverdict ([a-z][\w-]*)|npm run(?: -s)? ([a-z][\w-]*)/g)].map((match) => match[1] ?? match[2]);

  it.each(['en', 'de'] as const)('every action, in %s, names only commands of `verdict`, and the update actions name `verdict update`', (language) => {
    let named = 0;
    for (const action of PROTECTION_ACTIONS) {
      const lines = statusLines(statusWith(action), '/x/clamav-db', language).join('\n');
      expect(lines).toContain(protectionActionText(statusWith(action), language));
      for (const command of commandsIn(lines)) {
        named++;
        expect(COMMAND_NAMES, `${action}: ${lines}`).toContain(command);
      }
      if (action === 'update_signatures' || action === 'get_database') expect(commandsIn(lines)).toContain('update');
    }
    expect(named).toBeGreaterThanOrEqual(2);
  });

  it('the command table has update, and `verdict` without a command lists it', async () => {
    expect(COMMAND_NAMES).toEqual(expect.arrayContaining(['scan', 'watch', 'service', 'status', 'update']));
    const none = await verdict([]);
    expect(none.stderr).toMatch(/^ {2}update {2,}/m);
  });
});


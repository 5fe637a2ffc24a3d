// `verdict feeds` as a user runs it (bin/verdict.mjs, real processes on one data dir, a feed
// served locally): the ready-made feeds listed off with their terms; URLs refused with a reason
// (exit 2, English and German); a feed added and updated; `verdict scan` then finds its signature
// through Verdict's own clamd and names the feed (line and --json); switched off, the next scan is
// clean again.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd, ownDatabaseDir } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { startFeedServer, type FeedServer } from '../../support/feed-server.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin/verdict.mjs');
const MARKER = `verdict-cli-feed-${randomBytes(6).toString('hex')}`;

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: FeedServer;
beforeAll(async () => {
  dir = await tempDir('verdict-feeds-cli-');
  server = await startFeedServer();
  server.set('/sigs.ndb', { kind: 'file', body: `Feed.Cli.Marker:0:*:${Buffer.from(MARKER).toString('hex')}\n`, etag: '"1"' });
});
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

function verdict(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode([BIN, ...args], { cwd: ROOT, env: { VERDICT_KEYCHAIN_SERVICE: `verdict-feeds-cli-${process.pid}`, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', ...env }, timeoutMs: 90_000 });
}

async function systemClamdAnswers(): Promise<boolean> {
  return (await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)))).includes(true);
}

describe('verdict feeds', () => {
  it('lists the ready-made feeds off, with their terms; refuses bad URLs with their reason (exit 2)', async () => {
    const data = join(dir.path, 'list');
    const list = await verdict(['feeds', '--data-dir', data]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('[off] urlhaus  URLhaus (abuse.ch): malware URLs: not installed');
    expect(list.stdout).toContain('terms: https://sanesecurity.com/usage/signatures/');
    const json = JSON.parse((await verdict(['feeds', 'list', '--json', '--data-dir', data])).stdout) as { feeds: Array<{ id: string; enabled: boolean; licence: string }>; blocked: string | null };
    expect(json.feeds.map((feed) => feed.id)).toEqual(['urlhaus', 'sanesecurity-phishing', 'sanesecurity-malware']);
    expect(json.feeds.every((feed) => !feed.enabled && feed.licence.startsWith('https://'))).toBe(true);
    expect(json.blocked).toBe('no_own_database');

    const ftp = await verdict(['feeds', 'add', 'ftp://example.org/sigs.ndb', '--data-dir', data]);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr.trim()).toBe('Only http and https URLs can be fetched, not ftp.');
    const text = await verdict(['feeds', 'add', 'https://example.org/readme.txt', '--data-dir', data]);
    expect(text.code).toBe(2);
    expect(text.stderr.trim()).toBe('.txt is not a ClamAV database file: use .ndb, .hdb, .hsb, .ldb, .cdb, .yar and the like.');
    const de = await verdict(['feeds', 'add', 'https://user:pw@example.org/x.ndb', '--data-dir', data], { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' });
    expect(de.code).toBe(2);
    expect(de.stderr).toContain('Die URL enthält einen Benutzernamen oder ein Passwort');
    const unknown = await verdict(['feeds', 'on', 'nosuch', '--data-dir', data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No feed nosuch. "verdict feeds" lists them.');
  }, 60_000);

  it.skipIf(findClamd() === null)('add, update, scan (THREAT naming the feed), off, scan (clean)', async (context) => {
    if (await systemClamdAnswers()) return context.skip();
    const data = join(dir.path, 'data');
    await writeEicarDatabase(ownDatabaseDir(data));
    const marker = join(dir.path, 'marker.txt');
    await writeFile(marker, `x ${MARKER} y\n`);

    const add = await verdict(['feeds', 'add', server.url('/sigs.ndb'), '--name', 'My feed', '--json', '--data-dir', data]);
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ feed: { id: 'sigs', name: 'My feed', enabled: true, urls: [server.url('/sigs.ndb')] } });

    const update = await verdict(['feeds', 'update', '--data-dir', data]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/^\[on \] sigs {2}My feed: 1 signatures, updated \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m);
    expect(update.stdout).toContain('Feeds updated.');
    expect(update.stdout).toContain("Verdict's own clamd is not running: it loads the feeds when it starts.");

    const threat = await verdict(['scan', '--data-dir', data, marker]);
    expect(threat.code, threat.stderr).toBe(1);
    expect(threat.stdout.trim()).toBe(`THREAT ${marker}  (infected: Feed.Cli.Marker.UNOFFICIAL (feed: My feed))`);
    const json = await verdict(['scan', '--json', '--force', '--data-dir', data, marker]);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'unsafe', findings: [{ name: 'Feed.Cli.Marker.UNOFFICIAL', engine: 'clamd', feed: 'My feed' }] });

    const off = await verdict(['feeds', 'off', 'sigs', '--data-dir', data]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('Switched off sigs: 1 file(s) removed from the signature folder.');
    const clean = await verdict(['scan', '--force', '--data-dir', data, marker]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout.trim()).toBe(`CLEAN  ${marker}  (clean)`);
  }, 120_000);
});

// Extra signature feeds for real (issue 28 §3): feeds served by a local HTTP server, checked with
// clamscan, swapped into Verdict's own database folder and loaded by Verdict's own clamd (one per
// file). A good feed detects, and its finding names the feed; a conditional request is answered
// 304; a broken file never replaces the good one; a 404, a server that never answers and a file
// over the size cap fail their feed only; a feed switched off loses its signatures after the reload.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addFeed, setFeedEnabled } from '../../../electron/feeds/feed-changes.ts';
import { readFeedsState } from '../../../electron/feeds/feeds-state.ts';
import { reloadOwnClamd } from '../../../electron/feeds/reload-own-clamd.ts';
import { updateFeeds } from '../../../electron/feeds/update-feeds.ts';
import { acquirePidLock } from '../../../electron/pid-lock/pid-lock.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { findClamd, ownDatabaseDir } from '../../../electron/engine/own-clamd/find-clamav.ts';
import { OwnClamd } from '../../../electron/engine/own-clamd/own-clamd.ts';
import { OwnClamdEngine } from '../../../electron/engine/own-clamd-engine.ts';
import { feedView } from '../../../shared/feeds/feed.ts';
import { writeEicarDatabase } from '../../support/clamav-db.ts';
import { startFeedServer, type FeedServer } from '../../support/feed-server.ts';
import { tempDir } from '../scans/harness.ts';

const MARKER = `verdict-feed-marker-${randomBytes(6).toString('hex')}`;
const GOOD = `Feed.Test.Marker:0:*:${Buffer.from(MARKER).toString('hex')}\n`;
const BROKEN = 'Feed.Test.Broken:0:*:zz12\n';

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: FeedServer;
let clamd: OwnClamd;
let engine: OwnClamdEngine;
let dataDir: string;
let markerFile: string;
let socketPath: string;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const detected = async () => !(await engine.scan(markerFile)).safe;
const feedOf = (id: string) => readFeedsState(dataDir).feeds.find((feed) => feed.id === id)!;

beforeAll(async () => {
  dir = await tempDir('verdict-feeds-');
  dataDir = join(dir.path, 'data');
  // Verdict's own folder with a database of its own (feeds are installed only beside one).
  await writeEicarDatabase(ownDatabaseDir(dataDir));
  markerFile = join(dir.path, 'marker.txt');
  await writeFile(markerFile, `some text ${MARKER} more text\n`);
  server = await startFeedServer();
  if (findClamd() === null) return;
  clamd = new OwnClamd({ dataDir, backoffMs: [50, 100], startTimeoutMs: 60_000 });
  const state = await clamd.start();
  if (state.status !== 'running') throw new Error(`clamd did not start: ${JSON.stringify(state)}`);
  expect(state.databaseOrigin).toBe('own');
  socketPath = state.socketPath;
  engine = new OwnClamdEngine(clamd, socketPath);
}, 90_000);

afterAll(async () => {
  await engine?.close();
  await server?.close();
  await dir?.remove();
});

describe.skipIf(findClamd() === null)('signature feeds with a real clamd', () => {
  test('a good feed is fetched, checked, swapped in and reloaded; its detection names the feed', async () => {
    server.set('/good.ndb', { kind: 'file', body: GOOD, etag: '"good-1"' });
    expect(await detected()).toBe(false);
    const added = addFeed(dataDir, server.url('/good.ndb'), 'Test feed');
    expect(added.ok).toBe(true);
    const report = await updateFeeds(dataDir);
    expect(report).toMatchObject({ failed: [], changed: true, reload: 'reloaded', blocked: null });
    const feed = feedView(feedOf('good'));
    expect(feed.health).toMatchObject({ signatures: 1, lastError: null, lastUpdate: expect.any(String) });
    expect(readFileSync(join(ownDatabaseDir(dataDir), 'verdict-feed-good--good.ndb'), 'utf8')).toBe(GOOD);
    await until(detected, 'the feed signature after RELOAD');
    const verdict = await engine.scan(markerFile);
    expect(verdict.findings).toEqual([{ name: 'Feed.Test.Marker.UNOFFICIAL', feed: 'Test feed' }]);
    // A signature of the folder's own database is no feed's.
    expect((await engine.scanBytes(Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'))).findings).toEqual([{ name: 'Verdict-Test-Eicar.UNOFFICIAL' }]);
  }, 60_000);

  test('the next update asks conditionally, gets 304 and changes nothing', async () => {
    const before = server.requests('/good.ndb').length;
    const report = await updateFeeds(dataDir);
    expect(report).toMatchObject({ failed: [], changed: false, reload: 'not_needed' });
    const asked = server.requests('/good.ndb').slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ 'if-none-match': '"good-1"', 'if-modified-since': 'Wed, 25 Nov 2026 10:00:00 GMT' });
    expect(feedView(feedOf('good')).health.signatures).toBe(1);
  });

  test('a broken file does not replace the good one; its error is kept and the engine keeps detecting', async () => {
    server.set('/good.ndb', { kind: 'file', body: BROKEN, etag: '"good-2"' });
    const report = await updateFeeds(dataDir);
    expect(report).toMatchObject({ failed: ['good'], changed: false, reload: 'not_needed' });
    expect(readFileSync(join(ownDatabaseDir(dataDir), 'verdict-feed-good--good.ndb'), 'utf8')).toBe(GOOD);
    const health = feedView(feedOf('good')).health;
    expect(health.lastError).toMatchObject({ code: 'does_not_load', detail: expect.stringMatching(/Malformed database|parsing/i) });
    expect(health.signatures).toBe(1);
    // The good file stays in force: RELOAD and the feed still detects.
    expect(await reloadOwnClamd(dataDir)).toBe('reloaded');
    expect(await clamdAnswers({ socketPath })).toBe(true);
    expect(await detected()).toBe(true);
    server.set('/good.ndb', { kind: 'file', body: GOOD, etag: '"good-3"' });
  }, 60_000);

  test('a 404, a server that never answers and a file over the size cap fail their own feed only', async () => {
    const limits = { maxBytes: 10_000, headersTimeoutMs: 300, bodyTimeoutMs: 300, totalTimeoutMs: 5_000 };
    server.set('/slow.ndb', { kind: 'silent' });
    server.set('/huge.ndb', { kind: 'file', body: GOOD.repeat(1_000), etag: '"huge"', chunked: true });
    server.set('/huge-declared.hdb', { kind: 'file', body: Buffer.alloc(50_000, 0x41), etag: '"huge2"' });
    for (const path of ['/missing.ndb', '/slow.ndb', '/huge.ndb', '/huge-declared.hdb']) expect(addFeed(dataDir, server.url(path)).ok).toBe(true);
    const report = await updateFeeds(dataDir, { limits });
    expect(report.failed.sort()).toEqual(['huge', 'huge-declared', 'missing', 'slow']);
    const errorOf = (id: string) => feedView(feedOf(id)).health.lastError;
    expect(errorOf('missing')).toMatchObject({ code: 'http_status', detail: 'HTTP 404' });
    expect(errorOf('slow')).toMatchObject({ code: 'timeout' });
    expect(errorOf('huge')).toMatchObject({ code: 'too_large' });
    expect(errorOf('huge-declared')).toMatchObject({ code: 'too_large', detail: expect.stringContaining('50000') });
    // The good feed got its new version (same signatures), and nothing of the failed ones is in the folder.
    expect(feedView(feedOf('good')).health).toMatchObject({ signatures: 1, lastError: null });
    const installed = readFeedsState(dataDir).feeds.flatMap((feed) => feed.files.map((file) => file.file)).filter(Boolean);
    expect(installed).toEqual(['verdict-feed-good--good.ndb']);
    expect(existsSync(join(ownDatabaseDir(dataDir), '.verdict-feeds-staging'))).toBe(false);
    expect(await clamdAnswers({ socketPath })).toBe(true);
    for (const id of ['missing', 'slow', 'huge', 'huge-declared']) setFeedEnabled(dataDir, id, false);
  }, 60_000);

  test('a feed switched off: its file is removed, and after the reload its signatures are gone', async () => {
    expect(await detected()).toBe(true);
    const off = setFeedEnabled(dataDir, 'good', false);
    expect(off).toMatchObject({ ok: true, filesRemoved: 1 });
    expect(existsSync(join(ownDatabaseDir(dataDir), 'verdict-feed-good--good.ndb'))).toBe(false);
    expect(await reloadOwnClamd(dataDir)).toBe('reloaded');
    await until(async () => !(await detected()), 'the feed signature to go after RELOAD');
    expect(feedView(feedOf('good')).health.signatures).toBeNull();
  }, 60_000);
});

describe('feeds wait for a database of Verdict’s own', () => {
  test('with an empty own folder nothing is fetched or installed', async () => {
    const empty = join(dir.path, 'empty-data');
    await mkdir(empty, { recursive: true });
    server.set('/other.ndb', { kind: 'file', body: GOOD, etag: '"o"' });
    expect(addFeed(empty, server.url('/other.ndb')).ok).toBe(true);
    const before = server.requests('/other.ndb').length;
    const report = await updateFeeds(empty, { reload: async () => 'not_running' });
    expect(report).toMatchObject({ blocked: 'no_own_database', changed: false });
    expect(server.requests('/other.ndb').length).toBe(before);
    expect(existsSync(ownDatabaseDir(empty))).toBe(false);
  });

  test('a feed left alone in the folder (its database of its own gone) is taken out at the next update', async () => {
    const data = join(dir.path, 'alone-data');
    await writeEicarDatabase(ownDatabaseDir(data));
    server.set('/alone.ndb', { kind: 'file', body: GOOD, etag: '"a"' });
    expect(addFeed(data, server.url('/alone.ndb')).ok).toBe(true);
    expect(await updateFeeds(data, { reload: async () => 'not_running' })).toMatchObject({ failed: [], changed: true, blocked: null });
    const installed = join(ownDatabaseDir(data), 'verdict-feed-alone--alone.ndb');
    expect(existsSync(installed)).toBe(true);
    await rm(join(ownDatabaseDir(data), 'verdict-eicar.ndb'));
    expect(await updateFeeds(data, { reload: async () => 'not_running' })).toMatchObject({ blocked: 'no_own_database', changed: true });
    expect(existsSync(installed)).toBe(false);
    expect(feedView(readFeedsState(data).feeds.find((feed) => feed.id === 'alone')!)).toMatchObject({ enabled: true, health: { signatures: null } });
  });

  test('one update per data directory across processes: while another holds it, the update says busy', async () => {
    const data = join(dir.path, 'busy-data');
    await writeEicarDatabase(ownDatabaseDir(data));
    await mkdir(join(data, 'feeds'), { recursive: true });
    const lock = acquirePidLock(join(data, 'feeds', 'update.lock'));
    expect(lock.ok).toBe(true);
    try {
      expect(await updateFeeds(data)).toMatchObject({ blocked: 'busy', changed: false });
    } finally {
      if (lock.ok) lock.release();
    }
    expect(await updateFeeds(data, { reload: async () => 'not_running' })).toMatchObject({ blocked: null });
  });
});

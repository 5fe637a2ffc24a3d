// The feeds' update, the coordinator: files of feeds switched off go, each feed switched on is
// staged, checked and swapped in (or kept as it was, with its error), the state is written, and
// Verdict's own clamd reloads once if its folder changed. It follows each signature update
// (core/signature-update.ts, `verdict update`) and runs on its own from `verdict feeds update`.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { acquirePidLock } from '../pid-lock/pid-lock.ts';
import { checkDatabaseDir } from '../engine/own-clamd/find-clamav.ts';
import { feedView, type FeedView } from '../../shared/feeds/feed.ts';
import { findClamscan } from './check-feed-file.ts';
import { DEFAULT_FEED_LIMITS, type FeedFetchLimits } from './fetch-feed-file.ts';
import { FEED_FILE_PREFIX, feedsPaths, readFeedsState, writeFeedsState, type FeedsState } from './feeds-state.ts';
import { installFeed } from './install-feed.ts';
import { pruneFeedFiles } from './prune-feed-files.ts';
import { reloadOwnClamd, type ReloadOutcome } from './reload-own-clamd.ts';
import { findSigtool } from './signature-names.ts';
import { stageFeed, type FeedTools } from './stage-feed.ts';

export interface FeedsUpdateOptions {
  limits?: Partial<FeedFetchLimits>;
  clamscan?: string | null;
  /** Default: RELOAD through clamd.conf (reload-own-clamd.ts). */
  reload?: (dataDir: string) => Promise<ReloadOutcome>;
  onProgress?: (line: string) => void;
  /** Only these feeds are fetched (the others' files stay as they are); default every feed switched on. */
  only?: readonly string[];
}

export interface FeedsUpdateReport {
  feeds: FeedView[];
  /** Feeds whose update failed this time (their files, if any, are the last good ones). */
  failed: string[];
  changed: boolean;
  reload: ReloadOutcome | 'not_needed' | { error: string };
  /** `no_own_database`: Verdict's own folder holds no database of its own yet, so no feed is installed; `busy`: another process updates them now. */
  blocked: 'no_own_database' | 'busy' | null;
}

/**
 * Whether feeds may go into Verdict's own folder: only beside a database of its own (the official
 * one, or the user's). Feeds alone there would make Verdict's own clamd load that folder instead
 * of the system's, with the feeds' signatures only.
 */
export function feedsBlocked(state: FeedsState): 'no_own_database' | null {
  const contents = checkDatabaseDir(state.databaseDir);
  return contents.ok && contents.files.some((file) => !file.startsWith(FEED_FILE_PREFIX)) ? null : 'no_own_database';
}

const running = new Map<string, Promise<FeedsUpdateReport>>();

/** One update per data directory at a time in this process: a second call waits for the first, then runs. */
export function updateFeeds(dataDir: string, options: FeedsUpdateOptions = {}): Promise<FeedsUpdateReport> {
  const before = running.get(dataDir) ?? Promise.resolve(null);
  const next = before.catch(() => null).then(() => runUpdate(dataDir, options));
  running.set(dataDir, next);
  void next.finally(() => running.get(dataDir) === next && running.delete(dataDir)).catch(() => undefined);
  return next;
}

async function runUpdate(dataDir: string, options: FeedsUpdateOptions): Promise<FeedsUpdateReport> {
  const paths = feedsPaths(dataDir);
  mkdirSync(dirname(paths.statePath), { recursive: true, mode: 0o700 });
  // One update per data directory across processes too (the app's schedule, `verdict feeds update`).
  const lock = acquirePidLock(join(dirname(paths.statePath), 'update.lock'));
  if (!lock.ok) return { feeds: readFeedsState(dataDir).feeds.map(feedView), failed: [], changed: false, reload: 'not_needed', blocked: 'busy' };
  try {
    return await runLocked(dataDir, options);
  } finally {
    lock.release();
  }
}

async function runLocked(dataDir: string, options: FeedsUpdateOptions): Promise<FeedsUpdateReport> {
  const state = readFeedsState(dataDir);
  const blocked = feedsBlocked(state);
  // Feeds never stand alone in the folder: Verdict's own clamd would load them instead of the system's database.
  if (blocked !== null) state.feeds = state.feeds.map((feed) => ({ ...feed, enabled: false }));
  let changed = pruneFeedFiles(state) > 0;
  if (blocked !== null) state.feeds = readFeedsState(dataDir).feeds.map((feed) => ({ ...feed, files: state.feeds.find((pruned) => pruned.id === feed.id)?.files ?? feed.files }));
  const failed: string[] = [];
  if (blocked === null) {
    const clamscan = options.clamscan === undefined ? findClamscan() : options.clamscan;
    const tools: FeedTools = { clamscan, sigtool: findSigtool(clamscan), limits: { ...DEFAULT_FEED_LIMITS, ...options.limits }, userAgent: 'Verdict (ClamAV feeds)' };
    for (const [index, feed] of state.feeds.entries()) {
      if (!feed.enabled || (options.only && !options.only.includes(feed.id))) continue;
      options.onProgress?.(`${feed.name}: ${feed.urls.length} file(s)`);
      const staged = await stageFeed(state, feed, tools);
      const installed = await installFeed(state, feed, staged, tools.sigtool, new Date().toISOString());
      state.feeds[index] = installed.feed;
      changed ||= installed.changed;
      if (staged.some((file) => file.kind === 'failed')) failed.push(feed.id);
    }
    rmSync(state.stagingDir, { recursive: true, force: true });
  }
  // The list as it is now (switched off or removed while this ran), with this run's files.
  const now = readFeedsState(dataDir);
  now.feeds = now.feeds.map((feed) => ({ ...feed, files: state.feeds.find((ran) => ran.id === feed.id)?.files ?? feed.files }));
  changed = pruneFeedFiles(now) > 0 || changed;
  writeFeedsState(now);
  const reload = changed ? await reloadAfter(dataDir, options) : 'not_needed';
  return { feeds: now.feeds.map(feedView), failed, changed, reload, blocked };
}

async function reloadAfter(dataDir: string, options: FeedsUpdateOptions): Promise<FeedsUpdateReport['reload']> {
  try {
    return await (options.reload ?? reloadOwnClamd)(dataDir);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

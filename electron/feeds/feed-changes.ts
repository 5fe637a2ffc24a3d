// The user's changes to the list: a feed added by URL, switched on or off, a feed of one's own
// removed. Each writes the state; switching off or removing also takes its files out of the
// folder at once (pruneFeedFiles) so a RELOAD drops its signatures.
import { checkFeedUrl, type Feed, type FeedUrlProblem } from '../../shared/feeds/feed.ts';
import { readFeedsState, writeFeedsState, type FeedsState } from './feeds-state.ts';
import { pruneFeedFiles } from './prune-feed-files.ts';

export type FeedChangeError = { code: 'invalid_url'; problem: FeedUrlProblem; detail: string } | { code: 'not_found' | 'already_added' | 'preset'; detail: string };
export type FeedChange = { ok: true; state: FeedsState; feed: Feed; filesRemoved: number } | { ok: false; error: FeedChangeError };

/** A feed of the user's own, one URL, switched on (fetched at the next update). */
export function addFeed(dataDir: string, url: string, name?: string): FeedChange {
  const checked = checkFeedUrl(url);
  if (!checked.ok) return { ok: false, error: { code: 'invalid_url', problem: checked.problem, detail: checked.detail } };
  const state = readFeedsState(dataDir);
  const existing = state.feeds.find((feed) => feed.urls.includes(checked.url));
  if (existing) return { ok: false, error: { code: 'already_added', detail: existing.id } };
  const feed: Feed = { id: uniqueId(state, checked.file), name: (name?.trim() || checked.file).slice(0, 120), urls: [checked.url], enabled: true, preset: null, licence: null, files: [] };
  state.feeds.push(feed);
  writeFeedsState(state);
  return { ok: true, state, feed, filesRemoved: 0 };
}

export function setFeedEnabled(dataDir: string, id: string, enabled: boolean): FeedChange {
  return change(dataDir, id, (feed) => ({ ...feed, enabled }));
}

export function removeFeed(dataDir: string, id: string): FeedChange {
  const state = readFeedsState(dataDir);
  const feed = state.feeds.find((entry) => entry.id === id);
  if (!feed) return { ok: false, error: { code: 'not_found', detail: id } };
  if (feed.preset !== null) return { ok: false, error: { code: 'preset', detail: id } };
  state.feeds = state.feeds.filter((entry) => entry.id !== id);
  const filesRemoved = pruneFeedFiles(state);
  writeFeedsState(state);
  return { ok: true, state, feed, filesRemoved };
}

function change(dataDir: string, id: string, edit: (feed: Feed) => Feed): FeedChange {
  const state = readFeedsState(dataDir);
  const index = state.feeds.findIndex((entry) => entry.id === id);
  if (index === -1) return { ok: false, error: { code: 'not_found', detail: id } };
  state.feeds[index] = edit(state.feeds[index]!);
  const filesRemoved = pruneFeedFiles(state);
  writeFeedsState(state);
  return { ok: true, state, feed: state.feeds[index]!, filesRemoved };
}

/** An id from the URL's file name (`my-sigs` for my_sigs.ndb), numbered when taken. */
function uniqueId(state: FeedsState, file: string): string {
  const base = file.toLowerCase().replace(/\.[^.]*$/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'feed';
  let id = base;
  for (let n = 2; state.feeds.some((feed) => feed.id === id); n += 1) id = `${base}-${n}`;
  return id;
}

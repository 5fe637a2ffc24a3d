// The core's `feeds` namespace (shared/feeds/feeds-api.ts): the same steps as `verdict feeds`,
// answered as Results; after a change to the folder, the protection state is looked at again
// (the signature identity follows the files clamd loaded).
import { err, ok, type Result } from '../../shared/result.ts';
import { feedView, type FeedList } from '../../shared/feeds/feed.ts';
import type { FeedsApi } from '../../shared/feeds/feeds-api.ts';
import type { Guard } from '../core/core-context.ts';
import { addFeed, removeFeed, setFeedEnabled, type FeedChange } from './feed-changes.ts';
import { readFeedsState } from './feeds-state.ts';
import { reloadOwnClamd } from './reload-own-clamd.ts';
import { feedsBlocked, updateFeeds, type FeedsUpdateOptions } from './update-feeds.ts';

export function feedsApi(input: { guard: Guard; dataDir: string; afterChange: () => unknown; options?: FeedsUpdateOptions }): FeedsApi {
  const { guard, dataDir } = input;
  const list = (): FeedList => {
    const state = readFeedsState(dataDir);
    return { feeds: state.feeds.map(feedView), databaseDir: state.databaseDir, blocked: feedsBlocked(state) };
  };
  const update = async (only?: string[]): Promise<FeedList> => {
    const report = await updateFeeds(dataDir, { ...input.options, ...(only ? { only } : {}) });
    if (report.changed) await input.afterChange();
    return list();
  };
  const afterRemoval = async (change: Extract<FeedChange, { ok: true }>) => {
    if (change.filesRemoved === 0) return;
    await reloadOwnClamd(dataDir).catch(() => undefined);
    await input.afterChange();
  };
  return {
    list: () => guard('Reading the signature feeds', () => ok(list())),
    add: (feed) =>
      guard('Adding a signature feed', async () => {
        const added = addFeed(dataDir, feed.url, feed.name);
        if (!added.ok) return refused(added);
        return ok(await update([added.feed.id]));
      }),
    setEnabled: (id, enabled) =>
      guard('Switching a signature feed', async () => {
        const changed = setFeedEnabled(dataDir, id, enabled);
        if (!changed.ok) return refused(changed);
        if (enabled) return ok(await update([id]));
        await afterRemoval(changed);
        return ok(list());
      }),
    remove: (id) =>
      guard('Removing a signature feed', async () => {
        const removed = removeFeed(dataDir, id);
        if (!removed.ok) return refused(removed);
        await afterRemoval(removed);
        return ok(list());
      }),
    update: () => guard('Updating the signature feeds', async () => ok(await update())),
  };
}

function refused(change: Extract<FeedChange, { ok: false }>): Result<never> {
  const { error } = change;
  if (error.code === 'invalid_url') return err('invalid_feed_url', `The URL cannot be a feed (${error.problem}): ${error.detail}`, { problem: error.problem, detail: error.detail });
  const messages = { not_found: 'No such feed', already_added: 'That URL is already in a feed', preset: 'A ready-made feed is switched off, not removed' } as const;
  return err(`feed_${error.code}`, `${messages[error.code]}: ${error.detail}`, { detail: error.detail });
}

// The window's part of the signature feeds (issue 28 §3): what the preload exposes as
// `window.verdict.feeds` and the core answers, and the zod schema of each IPC channel.
import { z } from 'zod';
import type { Result } from '../result.ts';
import { feedAddSchema, feedIdSchema, type FeedAdd, type FeedList } from './feed.ts';

export interface FeedsApi {
  /** The feeds (the ready-made ones too) with their health. */
  list(): Promise<Result<FeedList>>;
  /** A feed of one's own by URL, switched on and fetched now; `invalid_feed_url` (params.problem) when the URL is refused. */
  add(input: FeedAdd): Promise<Result<FeedList>>;
  /** On: fetched now. Off: its files leave the folder and Verdict's own clamd reloads without them. */
  setEnabled(id: string, enabled: boolean): Promise<Result<FeedList>>;
  /** A feed one added (a ready-made one is only switched off). */
  remove(id: string): Promise<Result<FeedList>>;
  /** Fetches every feed switched on now (also done after each signature update). */
  update(): Promise<Result<FeedList>>;
}

export const FEEDS_CHANNELS = {
  'feeds:list': z.tuple([]),
  'feeds:add': z.tuple([feedAddSchema]),
  'feeds:setEnabled': z.tuple([feedIdSchema, z.boolean()]),
  'feeds:remove': z.tuple([feedIdSchema]),
  'feeds:update': z.tuple([]),
} as const;

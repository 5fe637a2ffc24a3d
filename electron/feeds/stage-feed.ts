// One feed's update, up to the swap: each of its URLs fetched (conditionally, while its file is
// installed) into the staging folder and checked to load on its own. The feed's new files are
// installed only if all of them passed; otherwise none is, and the feed keeps what it had.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkFeedUrl, type Feed, type FeedFileState } from '../../shared/feeds/feed.ts';
import { checkFeedFile } from './check-feed-file.ts';
import { fetchFeedFile, type FeedFetchLimits } from './fetch-feed-file.ts';
import { feedFileName, type FeedsState } from './feeds-state.ts';

export interface FeedTools {
  clamscan: string | null;
  sigtool: string | null;
  limits: FeedFetchLimits;
  userAgent: string;
}

/** A file ready to be swapped in, or unchanged (304), or what went wrong with it. */
export type StagedFile =
  | { url: string; kind: 'new'; file: string; staged: string; signatures: number; etag: string | null; lastModified: string | null }
  | { url: string; kind: 'unchanged' }
  | { url: string; kind: 'failed'; code: string; detail: string };

export async function stageFeed(state: FeedsState, feed: Feed, tools: FeedTools): Promise<StagedFile[]> {
  mkdirSync(state.stagingDir, { recursive: true, mode: 0o755 });
  const staged: StagedFile[] = [];
  for (const url of feed.urls) staged.push(await stageFile(state, feed, url, tools));
  return staged;
}

async function stageFile(state: FeedsState, feed: Feed, url: string, tools: FeedTools): Promise<StagedFile> {
  const checked = checkFeedUrl(url);
  if (!checked.ok) return { url, kind: 'failed', code: `url_${checked.problem}`, detail: checked.detail };
  const file = feedFileName(feed.id, checked.file);
  const before: FeedFileState | undefined = feed.files.find((entry) => entry.url === url && entry.file === file);
  const staged = join(state.stagingDir, file);
  rmSync(staged, { force: true });
  const fetched = await fetchFeedFile({
    url: checked.url,
    to: staged,
    // Conditional only while the file it would replace is in place.
    etag: before?.etag ?? null,
    lastModified: before?.lastModified ?? null,
    limits: tools.limits,
    userAgent: tools.userAgent,
  });
  if (fetched.kind === 'not_modified') return before ? { url, kind: 'unchanged' } : { url, kind: 'failed', code: 'http_status', detail: 'HTTP 304 without a file' };
  if (fetched.kind === 'failed') return { url, kind: 'failed', code: fetched.code, detail: fetched.detail };
  const loads = await checkFeedFile(staged, { clamscan: tools.clamscan, workDir: state.stagingDir });
  if (!loads.ok) {
    rmSync(staged, { force: true });
    return { url, kind: 'failed', code: loads.code, detail: loads.detail };
  }
  return { url, kind: 'new', file, staged, signatures: loads.signatures, etag: fetched.etag, lastModified: fetched.lastModified };
}

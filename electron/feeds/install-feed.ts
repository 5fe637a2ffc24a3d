// The swap: a feed whose files all passed gets them in the database folder, each by a rename
// from the staging folder (atomic: clamd reads the old file or the new one, never half of one),
// its signature names beside them, and its health written. A feed with a failed file keeps its
// old files and gets the error instead.
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Feed, FeedFileState } from '../../shared/feeds/feed.ts';
import type { FeedsState } from './feeds-state.ts';
import { listSignatureNames, writeSignatureNames } from './signature-names.ts';
import type { StagedFile } from './stage-feed.ts';

/** The feed after this update, and whether a file in the folder changed. */
export async function installFeed(state: FeedsState, feed: Feed, staged: StagedFile[], sigtool: string | null, now: string): Promise<{ feed: Feed; changed: boolean }> {
  const failed = staged.some((file) => file.kind === 'failed');
  let changed = false;
  const files: FeedFileState[] = [];
  for (const result of staged) {
    const before = feed.files.find((entry) => entry.url === result.url);
    const kept: FeedFileState = before ?? { url: result.url, file: null, signatures: null, etag: null, lastModified: null, updatedAt: null, checkedAt: null, error: null };
    if (result.kind === 'failed') {
      files.push({ ...kept, checkedAt: now, error: { code: result.code, detail: result.detail } });
    } else if (result.kind === 'unchanged') {
      files.push({ ...kept, checkedAt: now, error: failed ? kept.error : null });
    } else if (failed) {
      // Checked, but its feed is off for this update: the old file stays.
      rmSync(result.staged, { force: true });
      files.push({ ...kept, checkedAt: now });
    } else {
      writeSignatureNames(state.namesDir, result.file, await listSignatureNames(result.staged, sigtool));
      renameSync(result.staged, join(state.databaseDir, result.file));
      changed = true;
      files.push({ url: result.url, file: result.file, signatures: result.signatures, etag: result.etag, lastModified: result.lastModified, updatedAt: now, checkedAt: now, error: null });
    }
  }
  return { feed: { ...feed, files }, changed };
}

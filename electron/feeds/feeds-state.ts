// The feeds of one data directory: FeedsState is the capability's one state, read from and
// written to <data dir>/feeds/feeds.json (zod on read, atomic writes). The ready-made feeds
// (shared/feeds/presets.ts) are always in the list, off until the user switches one on.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { feedSchema, type Feed } from '../../shared/feeds/feed.ts';
import { FEED_PRESETS } from '../../shared/feeds/presets.ts';
import { ownDatabaseDir } from '../engine/own-clamd/find-clamav.ts';

export interface FeedsState {
  dataDir: string;
  /** Verdict's own database folder, which Verdict's own clamd loads: the feeds' files go here. */
  databaseDir: string;
  /** Downloads wait here until checked: inside the database folder (one filesystem, so the swap is a rename), in a folder clamd does not read. */
  stagingDir: string;
  /** The signature names of each installed file (which feed made a finding). */
  namesDir: string;
  statePath: string;
  feeds: Feed[];
}

/** Every file Verdict installs for a feed starts so; nothing else in the folder is a feed's. */
export const FEED_FILE_PREFIX = 'verdict-feed-';

const storedSchema = z.object({ version: z.literal(1), feeds: z.array(feedSchema) });

export function feedsPaths(dataDir: string): Omit<FeedsState, 'feeds'> {
  const databaseDir = ownDatabaseDir(dataDir);
  return { dataDir, databaseDir, stagingDir: join(databaseDir, '.verdict-feeds-staging'), namesDir: join(dataDir, 'feeds', 'names'), statePath: join(dataDir, 'feeds', 'feeds.json') };
}

/** The stored feeds, with every preset not stored yet added (off). A damaged file reads as none stored. */
export function readFeedsState(dataDir: string): FeedsState {
  const paths = feedsPaths(dataDir);
  let stored: Feed[] = [];
  let text: string | null = null;
  try {
    text = readFileSync(paths.statePath, 'utf8');
  } catch {
    // No file yet: the presets alone.
  }
  if (text !== null) {
    const parsed = storedSchema.safeParse(safeJson(text));
    if (parsed.success) stored = parsed.data.feeds;
    else setAside(paths.statePath);
  }
  const presets = FEED_PRESETS.filter((preset) => !stored.some((feed) => feed.id === preset.id)).map(
    (preset): Feed => ({ id: preset.id, name: preset.name, urls: [...preset.urls], enabled: false, preset: preset.id, licence: preset.licence, files: [] }),
  );
  return { ...paths, feeds: [...presets, ...stored].sort(byPresetsFirst) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A damaged list is kept beside (for the user to look at), not silently overwritten. */
function setAside(path: string): void {
  try {
    renameSync(path, `${path}.damaged-${Date.now()}`);
  } catch {
    // Read as none stored anyway.
  }
}

export function writeFeedsState(state: FeedsState): void {
  mkdirSync(join(state.dataDir, 'feeds'), { recursive: true, mode: 0o700 });
  const temporary = `${state.statePath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, feeds: state.feeds }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, state.statePath);
}

function byPresetsFirst(a: Feed, b: Feed): number {
  const order = (feed: Feed) => (feed.preset === null ? FEED_PRESETS.length : FEED_PRESETS.findIndex((preset) => preset.id === feed.preset));
  return order(a) - order(b);
}

/** A feed file's name in the database folder: the prefix, the feed's id, the URL's file name (its extension tells clamd the format). */
export function feedFileName(feedId: string, urlFile: string): string {
  // Leading dots go, but never the one before the extension: a URL's `..ndb` is `.ndb`, not `ndb` (clamd loads by extension).
  const safe = urlFile.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+(?=.*\.)/, '');
  return `${FEED_FILE_PREFIX}${feedId}--${safe}`;
}

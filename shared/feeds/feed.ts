// Extra signature feeds for Verdict's own clamd (issue 28 §3): what a feed is, its health, and the
// check of a URL the user adds. Pure, so the window checks a URL with the same words as the core.
import { z } from 'zod';

/** The ClamAV database formats a feed may be (the extension decides how clamd reads the file). */
export const FEED_EXTENSIONS = ['ndb', 'hdb', 'hsb', 'mdb', 'msb', 'ldb', 'cdb', 'idb', 'fp', 'sfp', 'ign2', 'ftm', 'pdb', 'wdb', 'yar', 'yara'] as const;
export type FeedExtension = (typeof FEED_EXTENSIONS)[number];

export const MAX_FEED_URL_LENGTH = 2048;

export const FEED_URL_PROBLEMS = ['empty', 'too_long', 'not_a_url', 'scheme', 'credentials', 'no_file', 'extension'] as const;
export type FeedUrlProblem = (typeof FEED_URL_PROBLEMS)[number];

export type FeedUrlCheck = { ok: true; url: string; file: string; extension: FeedExtension } | { ok: false; problem: FeedUrlProblem; detail: string };

/**
 * A URL a feed may be fetched from: http or https, no user name or password in it (it would be
 * stored and shown), and a last path segment that names a ClamAV database file by its extension.
 */
export function checkFeedUrl(input: string): FeedUrlCheck {
  const text = input.trim();
  if (text === '') return { ok: false, problem: 'empty', detail: '' };
  if (text.length > MAX_FEED_URL_LENGTH) return { ok: false, problem: 'too_long', detail: String(MAX_FEED_URL_LENGTH) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: 'not_a_url', detail: text.slice(0, 200) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: 'scheme', detail: url.protocol.replace(/:$/, '') };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials', detail: '' };
  const segments = url.pathname.split('/');
  let file: string;
  try {
    file = decodeURIComponent(segments[segments.length - 1] ?? '');
  } catch {
    file = '';
  }
  if (file === '' || file === '.' || file === '..' || /[\\/\0]/.test(file)) return { ok: false, problem: 'no_file', detail: url.pathname.slice(0, 200) };
  const dot = file.lastIndexOf('.');
  const extension = dot > 0 ? file.slice(dot + 1).toLowerCase() : '';
  if (!(FEED_EXTENSIONS as readonly string[]).includes(extension)) return { ok: false, problem: 'extension', detail: extension === '' ? file.slice(0, 100) : `.${extension.slice(0, 20)}` };
  return { ok: true, url: url.toString(), file, extension: extension as FeedExtension };
}

/** A feed's id: lower-case letters, digits and dashes (it names its files in the database folder). */
export const feedIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,47}$/);

/** How one of a feed's files fared at its last update. */
export const feedFileStateSchema = z.object({
  url: z.string(),
  /** Its name in Verdict's database folder, while it is installed there. */
  file: z.string().nullable(),
  signatures: z.number().int().nonnegative().nullable(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  /** When the file in the folder was last replaced (ISO 8601), or found unchanged (`checkedAt`). */
  updatedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
});
export type FeedFileState = z.infer<typeof feedFileStateSchema>;

export const feedSchema = z.object({
  id: feedIdSchema,
  name: z.string().min(1).max(120),
  urls: z.array(z.string().max(MAX_FEED_URL_LENGTH)).min(1).max(64),
  enabled: z.boolean(),
  /** A ready-made feed (presets.ts): its licence link. */
  preset: z.string().nullable(),
  licence: z.string().nullable(),
  files: z.array(feedFileStateSchema),
});
export type Feed = z.infer<typeof feedSchema>;

/** A feed's health in one line: when it last changed, how many signatures it brings, its last error. */
export interface FeedHealth {
  lastUpdate: string | null;
  signatures: number | null;
  lastError: { url: string; code: string; detail: string } | null;
}

export function feedHealth(feed: Feed): FeedHealth {
  const installed = feed.files.filter((file) => file.file !== null);
  const updates = feed.files.map((file) => file.updatedAt).filter((at): at is string => at !== null).sort();
  const failed = feed.files.find((file) => file.error !== null);
  return {
    lastUpdate: updates.at(-1) ?? null,
    signatures: installed.length === 0 ? null : installed.reduce((sum, file) => sum + (file.signatures ?? 0), 0),
    lastError: failed?.error ? { url: failed.url, ...failed.error } : null,
  };
}

/** What the window and `verdict feeds --json` show of a feed. */
export interface FeedView {
  id: string;
  name: string;
  urls: string[];
  enabled: boolean;
  preset: string | null;
  licence: string | null;
  health: FeedHealth;
}

export function feedView(feed: Feed): FeedView {
  return { id: feed.id, name: feed.name, urls: feed.urls, enabled: feed.enabled, preset: feed.preset, licence: feed.licence, health: feedHealth(feed) };
}

/** The list of feeds, and where they go (null: no own database yet, so feeds are not installed). */
export interface FeedList {
  feeds: FeedView[];
  databaseDir: string;
  /** Why feeds cannot be installed now (`no_own_database`), else null. */
  blocked: string | null;
}

/** Input of the IPC channels that change feeds. */
export const feedAddSchema = z.object({ url: z.string().min(1).max(MAX_FEED_URL_LENGTH), name: z.string().trim().min(1).max(120).optional() }).strict();
export type FeedAdd = z.infer<typeof feedAddSchema>;

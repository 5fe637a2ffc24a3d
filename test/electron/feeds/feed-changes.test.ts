// The list of feeds on disk (electron/feeds/feed-changes.ts, feeds-state.ts), with generated URLs:
// whatever URL is added, the feed gets a valid id of its own, a name within bounds and a file name
// that keeps its format, and the list reads back whole; a damaged list is set aside, not lost.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addFeed, removeFeed, setFeedEnabled } from '../../../electron/feeds/feed-changes.ts';
import { feedFileName, feedsPaths, readFeedsState } from '../../../electron/feeds/feeds-state.ts';
import { checkFeedUrl, FEED_EXTENSIONS, feedIdSchema, feedSchema } from '../../../shared/feeds/feed.ts';
import { tempDir } from '../scans/harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('verdict-feed-changes-');
});
afterAll(async () => dir?.remove());

const stem = fc.string({ minLength: 1, maxLength: 300 }).map((text) => encodeURIComponent(text).replace(/\./g, '%2E'));

describe('feeds on disk', () => {
  test('any accepted URL: a valid unique id, a bounded name, a file name with its format; the list reads back', () => {
    let round = 0;
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'] }), stem, fc.constantFrom(...FEED_EXTENSIONS), (base, name, ext) => {
        const url = `${new URL(base).origin}/${name}.${ext}`;
        const checked = checkFeedUrl(url);
        if (!checked.ok) return;
        const dataDir = join(dir.path, `d${round++ % 3}`);
        const added = addFeed(dataDir, url);
        if (!added.ok) return void expect(added.error.code).toBe('already_added');
        expect(feedIdSchema.safeParse(added.feed.id).success).toBe(true);
        expect(feedSchema.safeParse(added.feed).success).toBe(true);
        const file = feedFileName(added.feed.id, checked.file);
        expect(file).toMatch(/^verdict-feed-[a-z0-9-]+--[A-Za-z0-9._-]+$/);
        expect(file.toLowerCase().endsWith(`.${ext}`)).toBe(true);
        const ids = readFeedsState(dataDir).feeds.map((feed) => feed.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toContain(added.feed.id);
      }),
      // Found by CI: a file name of dots before its extension (`..ndb`) lost the extension's dot.
      { numRuns: 60, examples: [['http://a.aa', '%2E', 'ndb']] },
    );
  });

  test('on, off, remove: a ready-made feed is switched off, not removed; unknown ids are told', () => {
    const dataDir = join(dir.path, 'switch');
    expect(setFeedEnabled(dataDir, 'urlhaus', true)).toMatchObject({ ok: true, feed: { id: 'urlhaus', enabled: true } });
    expect(removeFeed(dataDir, 'urlhaus')).toMatchObject({ ok: false, error: { code: 'preset' } });
    expect(setFeedEnabled(dataDir, 'nosuch', true)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const added = addFeed(dataDir, 'https://example.org/mine.ndb', 'Mine');
    expect(addFeed(dataDir, 'https://example.org/mine.ndb')).toMatchObject({ ok: false, error: { code: 'already_added', detail: 'mine' } });
    expect(added.ok && removeFeed(dataDir, added.feed.id)).toMatchObject({ ok: true });
    expect(readFeedsState(dataDir).feeds.map((feed) => feed.id)).toEqual(['urlhaus', 'sanesecurity-phishing', 'sanesecurity-malware']);
  });

  test('a damaged list is set aside, and the ready-made feeds are offered again', () => {
    const dataDir = join(dir.path, 'damaged');
    expect(addFeed(dataDir, 'https://example.org/a.ndb').ok).toBe(true);
    const { statePath } = feedsPaths(dataDir);
    writeFileSync(statePath, '{"version": 1, "feeds": [{"id": "../x"}]}');
    expect(readFeedsState(dataDir).feeds.map((feed) => feed.preset)).toEqual(['urlhaus', 'sanesecurity-phishing', 'sanesecurity-malware']);
    expect(existsSync(statePath)).toBe(false);
    expect(readdirSync(join(dataDir, 'feeds')).some((name) => name.startsWith('feeds.json.damaged-'))).toBe(true);
  });
});

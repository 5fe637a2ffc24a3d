// The check of a feed URL the user adds (shared/feeds/feed.ts), with generated URLs and names:
// an http(s) URL naming a ClamAV database file is taken, with its file and format; anything else
// is refused with the reason the UI and the CLI word, and nothing throws.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkFeedUrl, FEED_EXTENSIONS, FEED_URL_PROBLEMS } from '../../../shared/feeds/feed.ts';

const fileStem = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}$/);
const extension = fc.constantFrom(...FEED_EXTENSIONS);
const caseOf = (text: string, upper: boolean) => (upper ? text.toUpperCase() : text);

describe('checkFeedUrl', () => {
  test('an http or https URL ending in a database file is taken, with that file and its format', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true }), fileStem, extension, fc.boolean(), (base, stem, ext, upper) => {
        const url = new URL(base);
        url.pathname = `${url.pathname.replace(/\/[^/]*$/, '')}/${stem}.${caseOf(ext, upper)}`;
        const checked = checkFeedUrl(` ${url.href} `);
        expect(checked).toMatchObject({ ok: true, extension: ext, file: `${stem}.${caseOf(ext, upper)}` });
      }),
    );
  });

  test('any other file type is refused as such, naming its extension', () => {
    const other = fc.stringMatching(/^[a-z0-9]{1,6}$/).filter((ext) => !(FEED_EXTENSIONS as readonly string[]).includes(ext));
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['https'] }), fileStem, other, (base, stem, ext) => {
        const url = new URL(base);
        url.pathname = `/${stem}.${ext}`;
        expect(checkFeedUrl(url.href)).toEqual({ ok: false, problem: 'extension', detail: `.${ext}` });
      }),
    );
  });

  test('other schemes, credentials, no file: each refused with its own reason', () => {
    fc.assert(
      fc.property(fc.constantFrom('ftp', 'file', 'javascript', 'data', 'ws', 'gopher'), fileStem, extension, (scheme, stem, ext) => {
        expect(checkFeedUrl(`${scheme}://example.org/${stem}.${ext}`)).toMatchObject({ ok: false, problem: 'scheme', detail: scheme });
      }),
    );
    expect(checkFeedUrl('https://me:secret@example.org/a.ndb')).toMatchObject({ ok: false, problem: 'credentials' });
    expect(checkFeedUrl('https://example.org/')).toMatchObject({ ok: false, problem: 'no_file' });
    expect(checkFeedUrl('https://example.org/sigs/..')).toMatchObject({ ok: false, problem: 'no_file' });
    expect(checkFeedUrl('   ')).toMatchObject({ ok: false, problem: 'empty' });
    expect(checkFeedUrl(`https://example.org/${'a'.repeat(3000)}.ndb`)).toMatchObject({ ok: false, problem: 'too_long' });
    expect(checkFeedUrl('example.org/a.ndb')).toMatchObject({ ok: false, problem: 'not_a_url' });
  });

  test('whatever the input, an answer and never a throw; taken only as http(s) with a known extension', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.webUrl(), fc.webUrl().map((url) => `${url}/x.ndb`)), (input) => {
        const checked = checkFeedUrl(input);
        if (checked.ok) {
          expect(checked.url).toMatch(/^https?:\/\//);
          expect(FEED_EXTENSIONS).toContain(checked.extension);
        } else {
          expect(FEED_URL_PROBLEMS).toContain(checked.problem);
        }
      }),
      { numRuns: 500 },
    );
  });
});

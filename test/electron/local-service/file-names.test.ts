// The service's file-name cleaning strips exactly what every display of a name
// escapes (shared/display-name.ts): checked for every code point, and end to end
// through the real service (attributes.file_name and the multipart filename).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayName } from '../../../shared/display-name.ts';
import { scanSchema } from '../../../shared/service-contract/scan.ts';
import { sanitizeFileName } from '../../../electron/local-service/upload/file-name.ts';
import { getScan, startTestService, submit, type TestService } from './harness.ts';

describe('sanitizeFileName and displayName agree', () => {
  it('strips a code point exactly when displayName() would show it as ⟨U+XXXX⟩ (all of U+0000–U+10FFFF)', () => {
    const disagreements: string[] = [];
    let stripped = 0;
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      if (character === '/' || character === '\\') continue; // path separators: the last segment is kept
      const name = `a${character}b.txt`;
      const hidden = displayName(name) !== name;
      if (hidden) stripped++;
      const cleaned = sanitizeFileName(name);
      if (cleaned !== (hidden ? 'ab.txt' : name)) disagreements.push(`U+${codePoint.toString(16).toUpperCase()}: ${JSON.stringify(cleaned)}`);
    }
    expect(disagreements.slice(0, 20)).toEqual([]);
    // Not vacuous: controls, bidi, format characters, surrogates and default-ignorables are thousands of code points.
    expect(stripped).toBeGreaterThan(2000);
  });

  it('strips the Arabic letter mark and the other bidi and invisible format characters', () => {
    expect(sanitizeFileName('invoice\u061Cfdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFileName('pay\u200Bpal\u2060\uFEFF\u00AD.exe')).toBe('paypal.exe');
    expect(sanitizeFileName('a\u2066b\u2067c\u2068d\u2069e\u200Ef\u200Fg\u202Ah\u202Ei.txt')).toBe('abcdefghi.txt');
    expect(sanitizeFileName('one\u2028two\u2029.txt')).toBe('onetwo.txt');
    expect(sanitizeFileName('x\u{E0001}y\u3164.exe')).toBe('xy.exe');
    expect(sanitizeFileName('\u061C\u200B')).toBeNull();
  });

  it('keeps what is text: joiners inside emoji and words, variation selectors, tag flags, right-to-left letters', () => {
    for (const name of ['team 👩🏽‍💻.txt', 'می‌خواهم.txt', 'holiday 🏖️.txt', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 flag.txt', 'تقرير مالي.txt', 'דוח שנתי.txt']) {
      expect(sanitizeFileName(name), name).toBe(name);
      expect(displayName(name), name).toBe(name);
    }
  });

  it('leaves nothing for a display to escape, and cleaning twice changes nothing', () => {
    for (const raw of ['a\u200C\u202Eب', 'ب\u200C\u202Eب', '👩\u200D\u200B💻', '\u{1F3F4}\u{E0067}x', 'a\uD800b', ' \u061C name \u200F.txt ']) {
      const cleaned = sanitizeFileName(raw);
      expect(cleaned, JSON.stringify(raw)).not.toBeNull();
      expect(displayName(cleaned!), JSON.stringify(raw)).toBe(cleaned);
      expect(sanitizeFileName(cleaned!), JSON.stringify(raw)).toBe(cleaned);
    }
  });
});

describe('names through the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('stores and echoes the attribute name and the multipart filename without U+061C, zero-width or other format characters', async () => {
    const fromAttributes = await submit(service.url, { mode: 'sync', attributes: { file_name: 'invoice\u061C\u200Bfdp\u2066.exe' } });
    expect(fromAttributes.status).toBe(200);
    const scan = scanSchema.parse(fromAttributes.body);
    expect(scan.file_name).toBe('invoicefdp.exe');
    // What the service kept, not just what it answered once.
    expect(scanSchema.parse((await getScan(service.url, scan.id)).body).file_name).toBe('invoicefdp.exe');

    const fromPart = await submit(service.url, { mode: 'sync', attributes: {}, partFileName: 'report\u061C\u00AD\uFEFF.pdf' });
    expect(scanSchema.parse(fromPart.body).file_name).toBe('report.pdf');

    const emoji = await submit(service.url, { mode: 'sync', attributes: { file_name: 'team 👩🏽‍💻.txt' } });
    expect(scanSchema.parse(emoji.body).file_name).toBe('team 👩🏽‍💻.txt');
  });
});

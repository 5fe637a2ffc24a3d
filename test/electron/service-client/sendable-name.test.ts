// The file name a service is told: the real name where a service keeps it, valid text always, and
// for any name a file can have (any bytes but NUL and '/') one the local service accepts, so no
// file goes unscanned for its name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeFileName } from '../../../electron/local-service/upload/file-name.ts';
import { sendableName } from '../../../electron/service-client/sendable-name.ts';
import { decodeFileName } from '../../../shared/file-name-bytes.ts';

describe('sendableName', () => {
  it('sends a name as it is, a byte that is not UTF-8 as ⟨0xFF⟩', () => {
    expect(sendableName('report final.pdf')).toBe('report final.pdf');
    expect(sendableName('invoice\u202Efdp.exe')).toBe('invoice\u202Efdp.exe');
    expect(sendableName('col\uDCFF.com')).toBe('col⟨0xFF⟩.com');
  });

  it('shows what a service would refuse: control characters only, a backslash, spaces only', () => {
    expect(sendableName('\u0001')).toBe('⟨U+0001⟩');
    expect(sendableName('a\\')).toBe('a⟨U+005C⟩');
    expect(sendableName('  ')).toBe('⟨U+0020⟩⟨U+0020⟩');
  });

  it('keeps a name of many separators within 255 characters once they are spelled out (the fuzzer found 128 backslashes refused)', () => {
    for (const count of [26, 128, 255]) {
      const sent = sendableName('\\'.repeat(count));
      expect([...sent].length).toBeLessThanOrEqual(255);
      expect(sanitizeFileName(sent)).not.toBeNull();
    }
  });

  it('shortens a name too long once its bytes are spelled out, keeping its extension', () => {
    const name = `${'\uDCE4'.repeat(100)}.jpg`;
    const sent = sendableName(name);
    expect([...sent].length).toBeLessThanOrEqual(255);
    expect(sent.endsWith('⟨0xE4⟩.jpg')).toBe(true);
  });

  it('gives the local service a name it keeps, as valid text, for any file name', () => {
    const fileName = fc
      .uint8Array({ minLength: 1, maxLength: 255 })
      .map((bytes) => decodeFileName(bytes.map((b) => (b === 0 || b === 0x2f ? 0x80 : b))))
      .filter((name) => name !== '.' && name !== '..');
    fc.assert(
      fc.property(fileName, (name) => {
        const sent = sendableName(name);
        expect(sent).not.toMatch(/\p{Cs}/u);
        expect(sanitizeFileName(sent)).not.toBeNull();
      }),
      { numRuns: 2_000 },
    );
  });
});

// `--clamd` read from any text: an address, or one sentence (en and de) that quotes the value
// and says what is wrong; never a throw. Every problem the parser can find has its words.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CLAMD_ADDRESS_PROBLEMS, parseClamdAddress } from '../../../shared/engine/clamd-address.ts';
import { readClamdOption } from '../../../electron/cli/clamd-option.ts';
import { clamdWords } from '../../../electron/cli/clamd-words.ts';
import { parseCliOptions } from '../../../electron/local-service/cli-options.ts';

const pieces = fc.constantFrom('unix:', 'tcp:', 'UNIX:', '/', ':', '[', ']', '::1', '127.0.0.1', 'clamav', '3310', '0', '65536', ' ', '\0', 'é', '-', '_');
const texts = fc.oneof(fc.string(), fc.array(pieces, { maxLength: 8 }).map((list) => list.join('')));

describe('readClamdOption', () => {
  test('any text: the parsed address, or a sentence quoting it in the language asked for', () => {
    fc.assert(
      fc.property(texts, fc.constantFrom('en' as const, 'de' as const), (text, language) => {
        const read = readClamdOption(text, language);
        const parsed = parseClamdAddress(text);
        expect(read.ok).toBe(parsed.ok);
        if (read.ok) {
          expect(read.address).toEqual(parsed.ok ? parsed.value : null);
          return;
        }
        expect(read.message.startsWith(`--clamd: ${JSON.stringify(text)} `)).toBe(true);
        expect(read.message).toContain(language === 'de' ? 'ist keine clamd-Adresse: ' : 'is not a clamd address: ');
        expect(read.message).not.toContain('undefined');
      }),
      { numRuns: 3000 },
    );
  });

  test('every problem has English and German words, and generated input meets each of them', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(texts, (text) => {
        const parsed = parseClamdAddress(text);
        if (!parsed.ok) seen.add(String(parsed.error.params?.problem));
      }),
      { numRuns: 3000 },
    );
    for (const problem of CLAMD_ADDRESS_PROBLEMS) {
      expect(clamdWords('en').problems[problem]({ host: 'h', port: 'p', kind: 'k', path: '/p' })).not.toBe('');
      expect(clamdWords('de').problems[problem]({ host: 'h', port: 'p', kind: 'k', path: '/p' })).not.toBe(clamdWords('en').problems[problem]({ host: 'h', port: 'p', kind: 'k', path: '/p' }));
    }
    expect([...seen].every((problem) => (CLAMD_ADDRESS_PROBLEMS as readonly string[]).includes(problem))).toBe(true);
  });

  test('absent: no address (the settings decide)', () => {
    expect(readClamdOption(undefined, 'en')).toEqual({ ok: true, address: undefined });
  });
});

describe('the service CLI', () => {
  test('--clamd names the clamd the service uses, over TCP or a socket', () => {
    const tcp = parseCliOptions(['--clamd', 'tcp:127.0.0.1:3310']);
    expect(tcp !== 'help' && tcp.options.engine).toMatchObject({ clamdHost: '127.0.0.1', clamdPort: 3310 });
    const unix = parseCliOptions(['--clamd', 'unix:/run/clamav/clamd.ctl']);
    expect(unix !== 'help' && unix.options.engine).toMatchObject({ clamdSocket: '/run/clamav/clamd.ctl' });
  });

  test('a bad value, or --clamd with the older options, is refused with its reason', () => {
    expect(() => parseCliOptions(['--clamd', 'tcp:[::1'])).toThrow('"tcp:[::1" is not a clamd address: an IPv6 address needs its closing ]');
    expect(() => parseCliOptions(['--clamd', 'tcp:h:1', '--clamd-socket', '/x'])).toThrow(/without --clamd-socket/);
  });
});

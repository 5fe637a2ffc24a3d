// Cutting a YARA file into rules (issue 28 §4): braces inside text strings, regular expressions,
// hex strings and comments do not end a rule; imports, includes and stray text are kept apart with
// their lines; any text from outside (generated) is cut without a throw, each rule whole.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { splitYara } from '../../../electron/rules/split-yara.ts';

describe('splitYara', () => {
  test('rules with braces in strings, regexes, hex strings and comments; imports, includes and stray text', () => {
    const text = [
      'import "pe"',
      'include "other.yar"',
      '/* a { comment } */',
      'private rule First : tag { // }',
      '  strings:',
      '    $a = "a } brace"',
      '    $r = /x{2}\\}y/',
      '    $h = { 41 [2-4] 42 }',
      '  condition:',
      '    any of them and "}" matches /}/',
      '}',
      'stray words',
      'global private rule Second {',
      '  strings: $a = "second" condition: $a',
      '}',
    ].join('\n');
    const split = splitYara(text);
    expect(split.imports).toEqual(['import "pe"']);
    expect(split.includes).toEqual(['include "other.yar"']);
    expect(split.rules.map(({ name, line }) => ({ name, line }))).toEqual([
      { name: 'First', line: 4 },
      { name: 'Second', line: 13 },
    ]);
    expect(split.rules[0]?.text.endsWith('matches /}/\n}')).toBe(true);
    expect(split.stray).toEqual([{ line: 12, text: 'stray words' }]);
  });

  test('any text: no throw, and every rule starts as a rule and is cut from the text as it stands', () => {
    const pieces = fc.constantFrom('rule ', 'private ', 'R1', '{', '}', '"', '/', '//', '/*', '*/', '\n', ' ', 'import "pe"\n', '$a = ', 'matches ', 'x', '\\');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }).map((parts) => parts.join('')), (text) => {
        const split = splitYara(text);
        for (const rule of split.rules) {
          expect(text).toContain(rule.text);
          expect(rule.text).toMatch(/^(?:(?:private|global)\s+)*rule\s/);
        }
      }),
    );
  });
});

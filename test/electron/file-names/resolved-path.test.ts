// resolvedPath gives what path.resolve gives, for generated paths: absolute and relative, with
// empty, "." and ".." segments, trailing separators, dots inside names, and names that are not UTF-8.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvedPath } from '../../../electron/file-names/resolved-path.ts';

const segment = fc.oneof(
  fc.constantFrom('', '.', '..', '...', '.a', 'a.', 'a..b', '\uD800', '\uFDD0', ' ', '\\'),
  fc.string({ unit: fc.constantFrom('a', '.', 'ä', '\\', ' '), minLength: 1, maxLength: 4 }),
);
const anyPath = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 })).map(([absolute, parts]) => `${absolute ? '/' : ''}${parts.join('/')}`);

describe('resolvedPath', () => {
  it('gives the string path.resolve gives', () => {
    fc.assert(
      fc.property(anyPath, (value) => {
        expect(resolvedPath(value)).toBe(path.resolve(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('returns a path with nothing to resolve as it is', () => {
    for (const value of ['/', '/a', '/a/b.c', '/a/.b/c..', '/x/\uD800y']) expect(resolvedPath(value)).toBe(path.resolve(value));
  });
});

import { describe, expect, it } from 'vitest';
import { compileIgnorePatterns, hasPartialSegment, isPartialName, relativeInside } from '../../../electron/watch/ignore-rules.ts';

describe('partial-download names', () => {
  it.each(['x.pdf.crdownload', 'Unconfirmed 123.crdownload', 'x.zip.part', 'X.ZIP.PART', 'a.partial', 'b.download', 'c.opdownload', 'd.tmp', '~$Report.docx', '.~lock.sheet.ods#', '.notes.swp'])('ignores %s', (name) => {
    expect(isPartialName(name)).toBe(true);
  });
  it.each(['x.pdf', 'part', 'report.docx', 'download.zip', 'tmp.txt', '~backup.txt', 'swp'])('keeps %s', (name) => {
    expect(isPartialName(name)).toBe(false);
  });
});

describe('ignore patterns', () => {
  const { matches } = compileIgnorePatterns(['*.iso', 'node_modules/', '/build/**', 'docs/*.md', '  ', 'Thumbs.db']);
  it('matches a pattern without a slash against the name at any depth', () => {
    expect(matches('disk.iso')).toBe(true);
    expect(matches('a/b/disk.iso')).toBe(true);
    expect(matches('a/node_modules')).toBe(true);
    expect(matches('Thumbs.db')).toBe(true);
    expect(matches('disk.iso.txt')).toBe(false);
  });
  it('matches a pattern with a slash from the folder top', () => {
    expect(matches('build/out/app.exe')).toBe(true);
    expect(matches('src/build/app.exe')).toBe(false);
    expect(matches('docs/readme.md')).toBe(true);
    expect(matches('docs/deeper/readme.md')).toBe(false);
  });
  it('matches nothing without patterns', () => {
    expect(compileIgnorePatterns([]).matches('anything')).toBe(false);
  });
});

describe('paths', () => {
  it('finds a partial-download name in any segment', () => {
    expect(hasPartialSegment('x.pdf.download/x.pdf')).toBe(true);
    expect(hasPartialSegment('a/b/c.txt')).toBe(false);
  });
  it('gives the path inside a root, or null outside it', () => {
    expect(relativeInside('/home/u/Downloads', '/home/u/Downloads/a/b.txt')).toBe('a/b.txt');
    expect(relativeInside('/home/u/Downloads', '/home/u/Downloads')).toBeNull();
    expect(relativeInside('/home/u/Downloads', '/home/u/Downloads2/x')).toBeNull();
    expect(relativeInside('/home/u/Downloads', '/home/u')).toBeNull();
    expect(relativeInside('/', '/etc/x')).toBe('etc/x');
  });
});

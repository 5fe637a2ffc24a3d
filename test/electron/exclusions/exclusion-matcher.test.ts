// Exclusions: each rule kind, global vs per-folder, automatic vs manual scans
// (the size limit is for automatic ones only), and path normalisation.
import { describe, expect, it } from 'vitest';
import { createExclusionMatcher, describeExclusion, exclusionConfigFromSettings } from '../../../electron/exclusions/exclusion-matcher.ts';

const manual = { size: 10, automatic: false } as const;
const rules = (partial: { paths?: string[]; globs?: string[]; extensions?: string[] }) => ({ paths: [], globs: [], extensions: [], ...partial });

describe('path rules', () => {
  const matcher = createExclusionMatcher({ global: { exclusions: rules({ paths: ['/home/u/Private', '~/Secrets/', '/srv/data/../keys'] }) } }, { platform: 'linux', homeDir: '/home/u' });

  it('exclude the path itself and everything under it', () => {
    expect(matcher.check('/home/u/Private', manual)).toEqual({ reason: 'excluded_path', detail: '/home/u/Private', scope: 'global' });
    expect(matcher.check('/home/u/Private/taxes/2024.pdf', manual)).toMatchObject({ reason: 'excluded_path' });
    expect(matcher.check('/home/u/Secrets/a.txt', manual)).toMatchObject({ reason: 'excluded_path', detail: '~/Secrets/' });
    expect(matcher.check('/srv/keys/id_rsa', manual)).toMatchObject({ reason: 'excluded_path', detail: '/srv/data/../keys' });
  });

  it('compare after resolving, not as text', () => {
    expect(matcher.check('/home/u/Documents/../Private/x', manual)).toMatchObject({ reason: 'excluded_path' });
    expect(matcher.check('/home/u/./Private', manual)).toMatchObject({ reason: 'excluded_path' });
    // A sibling that only shares the prefix is not inside.
    expect(matcher.check('/home/u/PrivateNotes/x', manual)).toBeNull();
    expect(matcher.check('/home/u/Public/x', manual)).toBeNull();
  });

  it('are case-sensitive on Linux and case-insensitive on macOS and Windows', () => {
    expect(matcher.check('/home/u/private/x', manual)).toBeNull();
    const mac = createExclusionMatcher({ global: { exclusions: rules({ paths: ['/Users/u/Private'] }) } }, { platform: 'darwin', homeDir: '/Users/u' });
    expect(mac.check('/users/U/PRIVATE/x.txt', manual)).toMatchObject({ reason: 'excluded_path', detail: '/Users/u/Private' });
    const win = createExclusionMatcher({ global: { exclusions: rules({ paths: ['C:\\Users\\U\\Private'] }) } }, { platform: 'win32', homeDir: 'C:\\Users\\U' });
    expect(win.check('c:\\users\\u\\private\\Tax.PDF', manual)).toMatchObject({ reason: 'excluded_path' });
    expect(win.check('C:/Users/U/Private/x', manual)).toMatchObject({ reason: 'excluded_path' });
    expect(win.check('C:\\Users\\U\\Public\\x', manual)).toBeNull();
  });

  it('a relative global path is reported as invalid and matches nothing', () => {
    const relative = createExclusionMatcher({ global: { exclusions: rules({ paths: ['Downloads'] }) } }, { platform: 'linux', homeDir: '/home/u' });
    expect(relative.invalid).toMatchObject([{ scope: 'global', kind: 'path', rule: 'Downloads' }]);
    expect(relative.check(`${process.cwd()}/Downloads/x`, manual)).toBeNull();
  });
});

describe('glob rules', () => {
  const env = { platform: 'linux', homeDir: '/home/u' } as const;

  it('a pattern without "/" matches a name at any depth, the file or a folder it is in', () => {
    const matcher = createExclusionMatcher({ global: { exclusions: rules({ globs: ['*.iso', 'node_modules'] }) } }, env);
    expect(matcher.check('/home/u/Downloads/ubuntu.iso', manual)).toEqual({ reason: 'excluded_glob', detail: '*.iso', scope: 'global' });
    expect(matcher.check('/home/u/code/app/node_modules/left-pad/index.js', manual)).toMatchObject({ detail: 'node_modules' });
    expect(matcher.check('/home/u/code/app/src/index.js', manual)).toBeNull();
    expect(matcher.check('/home/u/Downloads/ubuntu.iso.txt', manual)).toBeNull();
  });

  it('wildcards match names that start with a dot (unlike plain path.matchesGlob)', () => {
    const matcher = createExclusionMatcher({ global: { exclusions: rules({ globs: ['*.iso', '**/cache/**', '.git'] }) } }, env);
    expect(matcher.check('/home/u/.local/share/.hidden.iso', manual)).toMatchObject({ detail: '*.iso' });
    expect(matcher.check('/home/u/.config/app/cache/blob', manual)).toMatchObject({ detail: '**/cache/**' });
    expect(matcher.check('/home/u/code/.git/objects/ab/cdef', manual)).toMatchObject({ detail: '.git' });
  });

  it('a relative pattern with "/" starts at any depth in the global rules and at the folder top in a folder\'s rules', () => {
    const matcher = createExclusionMatcher(
      {
        global: { exclusions: rules({ globs: ['.cache/thumbnails'] }) },
        perFolder: [{ id: 'dl', path: '/home/u/Downloads', exclusions: rules({ globs: ['build/**', 'tmp/*.bin'] }) }],
      },
      env,
    );
    expect(matcher.check('/home/u/.cache/thumbnails/a.png', manual)).toMatchObject({ scope: 'global', detail: '.cache/thumbnails' });
    expect(matcher.check('/home/u/Downloads/build/out/a.exe', { ...manual, folderId: 'dl' })).toMatchObject({ scope: 'folder', detail: 'build/**' });
    expect(matcher.check('/home/u/Downloads/tmp/x.bin', { ...manual, folderId: 'dl' })).toMatchObject({ detail: 'tmp/*.bin' });
    // Anchored at the folder top: deeper `build/` folders are not meant.
    expect(matcher.check('/home/u/Downloads/proj/build/a.exe', { ...manual, folderId: 'dl' })).toBeNull();
    expect(matcher.check('/home/u/Downloads/tmp/deeper/x.bin', { ...manual, folderId: 'dl' })).toBeNull();
  });

  it('an absolute pattern matches from the root; a folder\'s name patterns never match the folder\'s own path', () => {
    const matcher = createExclusionMatcher(
      {
        global: { exclusions: rules({ globs: ['/home/*/Secret/**', '~/vault'] }) },
        perFolder: [{ id: 'tmp', path: '/home/u/tmp', exclusions: rules({ globs: ['tmp', 'u'] }) }],
      },
      env,
    );
    expect(matcher.check('/home/bob/Secret/plan.txt', manual)).toMatchObject({ detail: '/home/*/Secret/**' });
    expect(matcher.check('/home/u/vault/key', manual)).toMatchObject({ detail: '~/vault' });
    expect(matcher.check('/home/u/tmp/file.txt', { ...manual, folderId: 'tmp' })).toBeNull();
    expect(matcher.check('/home/u/tmp/tmp/file.txt', { ...manual, folderId: 'tmp' })).toMatchObject({ scope: 'folder', detail: 'tmp' });
  });

  it('case-insensitive where the platform is', () => {
    const mac = createExclusionMatcher({ global: { exclusions: rules({ globs: ['*.ISO'] }) } }, { platform: 'darwin', homeDir: '/Users/u' });
    expect(mac.check('/Users/u/a.iso', manual)).toMatchObject({ reason: 'excluded_glob' });
    const linux = createExclusionMatcher({ global: { exclusions: rules({ globs: ['*.ISO'] }) } }, env);
    expect(linux.check('/home/u/a.iso', manual)).toBeNull();
  });

  it('reports unusable patterns instead of matching everything', () => {
    const matcher = createExclusionMatcher({ global: { exclusions: rules({ globs: ['**', '{a/b,c}', '  '] }) } }, env);
    expect(matcher.invalid.map((rule) => rule.rule)).toEqual(['**', '{a/b,c}', '  ']);
    expect(matcher.check('/home/u/a', manual)).toBeNull();
  });
});

describe('folders', () => {
  const env = { platform: 'linux', homeDir: '/home/u' } as const;
  const folder = { size: null, automatic: false, kind: 'folder' } as const;

  it('a folder is excluded when every file in it would be: a matching name or path, or a pattern ending in /** or /*', () => {
    const matcher = createExclusionMatcher({ global: { exclusions: rules({ paths: ['/srv/keys'], globs: ['node_modules', 'build/**', '**/cache/*', 'tmp/*.bin'], extensions: ['iso'] }) } }, env);
    expect(matcher.check('/home/u/app/node_modules', folder)).toEqual({ reason: 'excluded_glob', detail: 'node_modules', scope: 'global' });
    expect(matcher.check('/home/u/app/node_modules/left-pad', folder)).toMatchObject({ detail: 'node_modules' });
    expect(matcher.check('/home/u/app/build', folder)).toMatchObject({ detail: 'build/**' });
    expect(matcher.check('/home/u/.app/cache', folder)).toMatchObject({ detail: '**/cache/*' });
    expect(matcher.check('/srv/keys', folder)).toMatchObject({ reason: 'excluded_path' });
    expect(matcher.check('/srv/keys/old', folder)).toMatchObject({ reason: 'excluded_path' });
    // Only some of its files are excluded, or none: the folder is walked.
    expect(matcher.check('/home/u/app/tmp', folder)).toBeNull();
    expect(matcher.check('/home/u/app/images.iso', folder)).toBeNull();
    expect(matcher.check('/srv', folder)).toBeNull();
    expect(matcher.check('/home/u/app/src', folder)).toBeNull();
    expect(matcher.check('/home/u/app/builder', folder)).toBeNull();
    // A file named like the folder pattern's folder is not matched by `build/**` itself.
    expect(matcher.check('/home/u/app/build', { size: 1, automatic: false })).toBeNull();
  });

  it('lists the folder-excluding rules of a watched folder, to notice when they change', () => {
    const none = createExclusionMatcher({ global: { exclusions: rules({ extensions: ['iso'] }) }, perFolder: [{ id: 'a', path: '/a' }] }, env);
    expect(none.folderRules('a')).toBe('');
    const some = createExclusionMatcher({ global: { exclusions: rules({ globs: ['node_modules'] }) }, perFolder: [{ id: 'a', path: '/a', exclusions: rules({ paths: ['raw'] }) }] }, env);
    expect(some.folderRules('a')).not.toBe('');
    expect(some.folderRules('a')).not.toBe(some.folderRules('other'));
    const same = createExclusionMatcher({ global: { exclusions: rules({ globs: ['node_modules'], extensions: ['x'] }) }, perFolder: [{ id: 'a', path: '/a', exclusions: rules({ paths: ['raw'] }) }] }, env);
    expect(same.folderRules('a')).toBe(some.folderRules('a'));
  });
});

describe('extension rules', () => {
  const matcher = createExclusionMatcher({ global: { exclusions: rules({ extensions: ['iso', '.VMDK', 'tar.gz'] }) } }, { platform: 'linux', homeDir: '/home/u' });

  it('match case-insensitively, written with or without the dot, including double extensions', () => {
    expect(matcher.check('/data/ubuntu.ISO', manual)).toEqual({ reason: 'excluded_extension', detail: 'iso', scope: 'global' });
    expect(matcher.check('/data/disk.vmdk', manual)).toMatchObject({ detail: '.VMDK' });
    expect(matcher.check('/data/backup.TAR.GZ', manual)).toMatchObject({ detail: 'tar.gz' });
    expect(matcher.check('/data/notes.gz', manual)).toBeNull();
    expect(matcher.check('/data/isotope.txt', manual)).toBeNull();
  });

  it('a dot-file named like the extension has no extension', () => {
    expect(matcher.check('/home/u/.iso', manual)).toBeNull();
  });
});

describe('per folder and the automatic size limit', () => {
  const matcher = createExclusionMatcher(
    {
      global: { exclusions: rules({ extensions: ['iso'] }), maxAutoScanSize: 1000 },
      perFolder: [
        { id: 'videos', path: '/home/u/Videos', exclusions: rules({ extensions: ['mkv'], paths: ['raw'] }), maxAutoScanSize: 50 },
        { id: 'dl', path: '/home/u/Downloads' },
      ],
    },
    { platform: 'linux', homeDir: '/home/u' },
  );

  it('a folder\'s rules apply on top of the global ones, and only to that folder\'s files', () => {
    expect(matcher.check('/home/u/Videos/a.mkv', { ...manual, folderId: 'videos' })).toMatchObject({ reason: 'excluded_extension', scope: 'folder' });
    expect(matcher.check('/home/u/Videos/a.iso', { ...manual, folderId: 'videos' })).toMatchObject({ reason: 'excluded_extension', scope: 'global' });
    expect(matcher.check('/home/u/Videos/raw/take1.mov', { ...manual, folderId: 'videos' })).toMatchObject({ reason: 'excluded_path', detail: 'raw', scope: 'folder' });
    // A manual scan of the same file (no folder) sees the global rules only.
    expect(matcher.check('/home/u/Videos/a.mkv', manual)).toBeNull();
    expect(matcher.check('/home/u/Downloads/a.mkv', { ...manual, folderId: 'dl' })).toBeNull();
  });

  it('the size limit applies to automatic scans only, with the folder\'s own limit first', () => {
    expect(matcher.check('/home/u/Downloads/big.bin', { size: 1001, folderId: 'dl', automatic: true })).toEqual({
      reason: 'over_auto_scan_size',
      detail: '1000',
      scope: 'global',
    });
    expect(matcher.check('/home/u/Downloads/ok.bin', { size: 1000, folderId: 'dl', automatic: true })).toBeNull();
    expect(matcher.check('/home/u/Videos/clip.mov', { size: 51, folderId: 'videos', automatic: true })).toMatchObject({ detail: '50', scope: 'folder' });
    expect(matcher.check('/home/u/Downloads/big.bin', { size: 5_000_000, folderId: 'dl', automatic: false })).toBeNull();
    expect(matcher.check('/home/u/Downloads/unknown.bin', { size: null, folderId: 'dl', automatic: true })).toBeNull();
  });

  it('an excluded folder is known before it is walked', () => {
    const folderCheck = { size: null, automatic: true, folderId: 'videos', kind: 'folder' } as const;
    expect(matcher.check('/home/u/Videos/raw', folderCheck)).toMatchObject({ reason: 'excluded_path', scope: 'folder' });
    expect(matcher.check('/home/u/Videos/cut', folderCheck)).toBeNull();
    // Extensions and the size limit never exclude a folder.
    expect(matcher.check('/home/u/Videos/film.mkv', folderCheck)).toBeNull();
    expect(matcher.check('/home/u/Videos/disc.iso', folderCheck)).toBeNull();
  });

  it('no limit set: nothing is too large', () => {
    const unlimited = createExclusionMatcher({ global: {} }, { platform: 'linux' });
    expect(unlimited.check('/x/huge.bin', { size: 99_000_000, automatic: true })).toBeNull();
  });
});

describe('helpers for the pipeline', () => {
  it('builds the matcher input from settings, with or without the new fields', () => {
    const config = exclusionConfigFromSettings({
      exclusions: rules({ globs: ['*.iso'] }),
      maxAutoScanSize: 10,
      watchedFolders: [{ id: 'a', path: '/a' }, { id: 'b', path: '/b', exclusions: rules({ extensions: ['mkv'] }), maxAutoScanSize: 5 }],
    });
    expect(config).toEqual({
      global: { exclusions: rules({ globs: ['*.iso'] }), maxAutoScanSize: 10 },
      perFolder: [
        { id: 'a', path: '/a', exclusions: undefined, maxAutoScanSize: null },
        { id: 'b', path: '/b', exclusions: rules({ extensions: ['mkv'] }), maxAutoScanSize: 5 },
      ],
    });
    const matcher = createExclusionMatcher(config, { platform: 'linux' });
    expect(matcher.check('/b/x.mkv', { size: 1, folderId: 'b', automatic: true })).toMatchObject({ reason: 'excluded_extension' });
    expect(matcher.check('/a/x.bin', { size: 11, folderId: 'a', automatic: true })).toMatchObject({ reason: 'over_auto_scan_size' });
  });

  it('describes each reason in plain words for the skipped record', () => {
    expect(describeExclusion({ reason: 'excluded_glob', detail: '*.iso', scope: 'global' })).toBe('Not scanned: it matches the pattern "*.iso" in the global exclusions.');
    expect(describeExclusion({ reason: 'excluded_extension', detail: '.ISO', scope: 'folder' })).toBe("Not scanned: files ending in .ISO are excluded in this watched folder's exclusions.");
    expect(describeExclusion({ reason: 'excluded_path', detail: '~/Private', scope: 'global' })).toBe('Not scanned: ~/Private is excluded in the global exclusions.');
    expect(describeExclusion({ reason: 'over_auto_scan_size', detail: String(20 * 1024 * 1024), scope: 'global' }, 30 * 1024 * 1024)).toBe(
      'Not scanned automatically: it is 30 MB, over the 20 MB limit for automatic scans in the settings. Scan it by hand to check it.',
    );
    expect(describeExclusion({ reason: 'excluded_glob', detail: 'node_modules', scope: 'global' }, null, 'folder')).toBe(
      'Not scanned: the folder matches the pattern "node_modules" in the global exclusions; nothing in it was looked at.',
    );
    expect(describeExclusion({ reason: 'excluded_path', detail: 'raw', scope: 'folder' }, null, 'folder')).toBe(
      "Not scanned: raw is excluded in this watched folder's exclusions; nothing in this folder was looked at.",
    );
  });
});

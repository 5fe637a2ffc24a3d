// Where a file goes, as the renderer asks before an upload and the core sends it:
// the deepest watched folder containing the file chooses, else the settings' backend.
import { describe, expect, it } from 'vitest';
import { folderBackendOf, folderContaining, remoteServiceOrigin, uploadOriginFor } from '../../shared/settings/folder-route.ts';
import { defaultSettings, watchedFolderSchema, type Settings, type WatchedFolder } from '../../shared/settings/settings.ts';

const folder = (path: string, backend: WatchedFolder['backend']): WatchedFolder =>
  watchedFolderSchema.parse({ id: path, path, backend });

const settings = (patch: Partial<Settings>): Settings => ({ ...defaultSettings(), ...patch });

describe('folder routes', () => {
  it('picks the deepest folder containing the file, never a sibling sharing a prefix', () => {
    const folders = [folder('/home/a/Downloads', 'remote'), folder('/home/a/Downloads/private/', 'local'), folder('/home/a/Down', 'local')];
    expect(folderContaining('/home/a/Downloads/x.zip', folders)?.path).toBe('/home/a/Downloads');
    expect(folderBackendOf('/home/a/Downloads/private/deep/tax.pdf', folders)).toBe('local');
    expect(folderBackendOf('/home/a/Downloadsextra/x', folders)).toBe('default');
    expect(folderBackendOf('/home/a/Downloads', folders)).toBe('default');
  });

  it('treats Windows paths without case and with either separator', () => {
    const folders = [folder('C:\\Users\\A\\Private', 'local')];
    expect(folderBackendOf('c:\\users\\a\\private\\x.doc', folders)).toBe('local');
    expect(folderBackendOf('C:/Users/A/Private/x.doc', folders)).toBe('local');
    expect(folderBackendOf('C:\\Users\\A\\Public\\x.doc', folders)).toBe('default');
  });

  it('says which files would leave the machine, and to which origin', () => {
    const remote = settings({
      backend: { kind: 'remote', baseUrl: 'https://scan.example.com/v1' },
      watchedFolders: [folder('/data/private', 'local')],
    });
    expect(uploadOriginFor('/data/private/a.txt', remote)).toBeNull();
    expect(uploadOriginFor('/data/public/a.txt', remote)).toBe('https://scan.example.com');

    const local = settings({ remoteBaseUrl: 'https://scan.example.com/v1', watchedFolders: [folder('/data/shared', 'remote')] });
    expect(remoteServiceOrigin(local)).toBe('https://scan.example.com');
    expect(uploadOriginFor('/data/shared/a.txt', local)).toBe('https://scan.example.com');
    expect(uploadOriginFor('/data/other/a.txt', local)).toBeNull();

    // A folder set to remote with no remote set up sends nothing (the core holds its files and says why).
    expect(uploadOriginFor('/data/shared/a.txt', settings({ watchedFolders: [folder('/data/shared', 'remote')] }))).toBeNull();
  });
});

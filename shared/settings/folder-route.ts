// Where a file goes, decided the same way in the renderer (to ask before an upload)
// and in the core (to send it): the deepest watched folder containing the file
// chooses (its `backend`), else the settings' backend. Pure string logic, since
// shared/ uses no node:path: both separators count, and Windows drive paths
// compare without case.
import type { FolderBackend } from './protection.ts';
import type { Settings, WatchedFolder } from './settings.ts';

const trimSeparators = (path: string): string => path.replace(/[\\/]+$/, '');
const isWindowsPath = (path: string): boolean => /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('\\\\');
const normalise = (path: string): string => {
  const unified = trimSeparators(path).replaceAll('\\', '/');
  return isWindowsPath(path) ? unified.toLowerCase() : unified;
};

/** The deepest watched folder that contains `path`, or null. */
export function folderContaining<F extends Pick<WatchedFolder, 'path'>>(path: string, folders: readonly F[]): F | null {
  const file = normalise(path);
  let best: F | null = null;
  let bestLength = -1;
  for (const folder of folders) {
    const root = normalise(folder.path);
    if (root.length > bestLength && file.startsWith(`${root}/`)) {
      best = folder;
      bestLength = root.length;
    }
  }
  return best;
}

/** The remote service set up (the default backend's, else the one kept for folders set to `remote`), as an origin. */
export function remoteServiceOrigin(settings: Pick<Settings, 'backend' | 'remoteBaseUrl'>): string | null {
  const url = settings.backend.kind === 'remote' ? settings.backend.baseUrl : settings.remoteBaseUrl;
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The target a file's folder chose (`default` outside any watched folder). */
export function folderBackendOf(path: string, folders: ReadonlyArray<Pick<WatchedFolder, 'path' | 'backend'>>): FolderBackend {
  return folderContaining(path, folders)?.backend ?? 'default';
}

/** The remote origin a file would be uploaded to, or null when the built-in engine scans it (or no remote is set up). */
export function uploadOriginFor(path: string, settings: Pick<Settings, 'backend' | 'remoteBaseUrl' | 'watchedFolders'>): string | null {
  const target = folderBackendOf(path, settings.watchedFolders);
  if (target === 'local') return null;
  if (target === 'remote') return remoteServiceOrigin(settings);
  return settings.backend.kind === 'remote' ? remoteServiceOrigin(settings) : null;
}

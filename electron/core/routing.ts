// Which backend a file goes to: its watched folder's choice, else the default.
import type { FolderBackend } from '../../shared/settings/protection.ts';
import type { Settings, WatchedFolder } from '../../shared/settings/settings.ts';
import { findWatchedFolder } from '../exclusions/watched-folder.ts';

/** What decides where files go; when it changes, queued and in-flight files are routed again. */
export function routingOf(settings: Settings): string {
  const folders = settings.watchedFolders.filter((folder) => folder.backend !== 'default').map((folder) => [folder.path, folder.backend]);
  return JSON.stringify([settings.backend, settings.remoteBaseUrl, folders]);
}

/**
 * The backend target of a file: its watched folder's choice (the deepest folder containing it), whatever
 * the origin, so a folder kept local stays local even for a file dropped on the window. The folders are
 * looked at only while one of them chose something other than the default.
 */
export function createRouter(folders: () => readonly WatchedFolder[]): (path: string) => FolderBackend {
  let seen: readonly WatchedFolder[] | null = null;
  let anyRouted = false;
  return (path) => {
    const current = folders();
    if (current !== seen) {
      seen = current;
      anyRouted = current.some((folder) => folder.backend !== 'default');
    }
    if (!anyRouted) return 'default';
    return findWatchedFolder(path, current)?.backend ?? 'default';
  };
}

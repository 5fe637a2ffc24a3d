// Which watched folder a file belongs to, by its path: the deepest folder that
// contains it (folders may be nested). The pipeline gets paths, not folder ids.
import path from 'node:path';

export function findWatchedFolder<F extends { path: string }>(
  filePath: string,
  folders: readonly F[],
  env: { platform?: NodeJS.Platform } = {},
): F | null {
  const platform = env.platform ?? process.platform;
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const fold = (value: string) => (platform === 'win32' || platform === 'darwin' ? value.toLowerCase() : value);
  const file = fold(pathApi.resolve(filePath));
  let best: F | null = null;
  let bestLength = -1;
  for (const folder of folders) {
    const root = fold(pathApi.resolve(folder.path));
    const prefix = root.endsWith(pathApi.sep) ? root : root + pathApi.sep;
    if (file.startsWith(prefix) && root.length > bestLength) {
      best = folder;
      bestLength = root.length;
    }
  }
  return best;
}

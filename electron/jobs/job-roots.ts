// Where each kind of job looks, per OS: a quick scan the places downloads and
// attachments land (only those that exist), a full scan the home folder, a
// custom scan what it was given.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { JobKind } from './job-state.ts';

/** The user's folders, from the environment (tests give a fake home and temp folder). */
export interface JobPlaces {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** The temp folder as os.tmpdir() finds it, from the given environment. */
export function tempFolder(places: JobPlaces): string {
  const { env, platform } = places;
  if (platform === 'win32') return env.TEMP || env.TMP || path.win32.join(env.SystemRoot || 'C:\\Windows', 'Temp');
  return (env.TMPDIR || env.TMP || env.TEMP || '/tmp').replace(/(.)\/+$/, '$1');
}

/** The quick scan's candidate folders (XDG user dirs on Linux when set). */
export function quickCandidates(places: JobPlaces): string[] {
  const { home, env, platform } = places;
  const xdg = platform === 'linux' ? env : {};
  return [
    xdg.XDG_DOWNLOAD_DIR || path.join(home, 'Downloads'),
    xdg.XDG_DESKTOP_DIR || path.join(home, 'Desktop'),
    xdg.XDG_DOCUMENTS_DIR || path.join(home, 'Documents'),
    tempFolder(places),
  ];
}

/** The job's roots: existing folders (or files, for custom), each once, none inside another. */
export async function rootsFor(kind: JobKind, places: JobPlaces, given: readonly string[] = []): Promise<string[]> {
  // A drive job's root is its mount point (electron/drives/).
  if (kind === 'custom' || kind === 'drive') return [...new Set(given.map((root) => path.resolve(root)))];
  // Its files are a selection from the history (electron/recheck/), not a walk of folders.
  if (kind === 'recheck') return [];
  const candidates = kind === 'full' ? [places.home] : quickCandidates(places);
  const existing: string[] = [];
  for (const candidate of candidates.map((folder) => path.resolve(folder))) {
    const isFolder = await stat(candidate).then((stats) => stats.isDirectory(), () => false);
    if (isFolder) existing.push(candidate);
  }
  return withoutNested(existing);
}

/** Drops repeats and folders inside another root (the walk would meet them anyway). */
export function withoutNested(roots: readonly string[]): string[] {
  const unique = [...new Set(roots)];
  return unique.filter((root) => !unique.some((other) => other !== root && isInside(root, other)));
}

const isInside = (child: string, parent: string): boolean => {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

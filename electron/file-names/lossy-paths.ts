// Paths handed over by APIs that decode names lossily (Electron's file dialog and dropped files,
// a second launch's arguments): each byte sequence that is not UTF-8 became U+FFFD, so the path
// names another file or none. When such a path names nothing, each component holding U+FFFD that
// is not there is looked up in its folder listed as bytes: the one entry whose lossy decoding is
// that component is the name meant. None, or more than one: the path stays as it was given (and
// is reported missing). A path that exists is taken as it is: a real U+FFFD is a name like any other.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fsPath, nameOf } from './fs-path.ts';

const exists = (p: string): Promise<boolean> => lstat(fsPath(p)).then(() => true, () => false);

/** The exact names in `folder` that decode lossily to `lossyName` and are not UTF-8 themselves. */
export async function namesDecodingTo(folder: string, lossyName: string): Promise<string[]> {
  const entries = await readdir(fsPath(folder), { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return entries.filter((entry) => entry.toString('utf8') === lossyName).map(nameOf).filter((exact) => exact !== lossyName);
}

/** The path meant by a path that may have been decoded lossily (see above). */
export async function exactPathFor(given: string): Promise<string> {
  if (!given.includes('\uFFFD') || !path.isAbsolute(given) || (await exists(given))) return given;
  const { root } = path.parse(given);
  let current = root;
  for (const part of given.slice(root.length).split(path.sep)) {
    const next = path.join(current, part);
    if (!part.includes('\uFFFD') || (await exists(next))) {
      current = next;
      continue;
    }
    const found = await namesDecodingTo(current, part);
    if (found.length !== 1) return given;
    current = path.join(current, found[0]!);
  }
  return current;
}

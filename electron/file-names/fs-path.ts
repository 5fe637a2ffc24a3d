// File names reach `fs` as the bytes they stand for. Node converts a string path to UTF-8 and
// decodes the names it reads from UTF-8, replacing what is not valid with U+FFFD: a name that is
// not UTF-8 could then be neither opened nor told apart from another. Paths stay strings in
// Verdict (shared/file-name-bytes.ts escapes each such byte as U+DC80..U+DCFF); every `fs` call
// that takes a path takes fsPath(path), and every name or path read back goes through nameOf().
import type { Dir } from 'node:fs';
import { opendir, readlink, realpath } from 'node:fs/promises';
import { decodeFileName, encodeFileName, hasEscapedBytes } from '../../shared/file-name-bytes.ts';

/**
 * The path as `fs` takes it: the string itself when it holds no escaped byte (nothing to pay),
 * else a Buffer of its exact bytes. On Windows libuv reads a Buffer path as WTF-8, so a name
 * with an unpaired UTF-16 surrogate (listed as its WTF-8 bytes, escaped) is reached too.
 */
export function fsPath(path: string): string | Buffer {
  return hasEscapedBytes(path) ? Buffer.from(encodeFileName(path)) : path;
}

/** A name or path `fs` gave as bytes, as Verdict's string. */
export function nameOf(bytes: Buffer): string {
  // Node's decoder turns every invalid sequence into U+FFFD: without one, the bytes were valid UTF-8.
  const text = bytes.toString('utf8');
  return text.includes('\uFFFD') ? decodeFileName(bytes) : text;
}

/** realpath that neither takes nor gives a lossy name. */
export async function exactRealpath(path: string): Promise<string> {
  return nameOf(await realpath(fsPath(path), { encoding: 'buffer' }));
}

/** A symbolic link's target, exactly. */
export async function exactReadlink(path: string): Promise<string> {
  return nameOf(await readlink(fsPath(path), { encoding: 'buffer' }));
}

/**
 * A folder's entry names, read a few at a time (`bufferSize`), each exact. The folder closes when
 * the loop over them ends, throws or is abandoned. Rejects when the folder cannot be opened.
 */
export async function folderNames(folder: string, bufferSize: number): Promise<AsyncGenerator<string>> {
  // `encoding: 'buffer'` works at run time; Node's types only list text encodings for opendir.
  const dir = await opendir(fsPath(folder), { bufferSize, encoding: 'buffer' as BufferEncoding });
  return namesIn(dir);
}

async function* namesIn(dir: Dir): AsyncGenerator<string> {
  for await (const entry of dir) yield nameOf(entry.name as unknown as Buffer);
}

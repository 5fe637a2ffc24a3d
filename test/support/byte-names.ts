// Files whose names are not UTF-8, for tests: created through Buffer paths (as `touch $'col\xff'`
// would), and named as Verdict names them (shared/file-name-bytes.ts: each such byte as U+DC00 + byte).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeFileName, encodeFileName } from '../../shared/file-name-bytes.ts';

/** A name's bytes written in a string with \xNN escapes: `bytesOf('col\xff.com')` is c o l 0xFF . c o m. */
export const bytesOf = (latin1: string): Buffer => Buffer.from(latin1, 'latin1');

/** The Buffer path `fs` takes for a Verdict path string. */
export const rawPath = (verdictPath: string): Buffer => Buffer.from(encodeFileName(verdictPath));

/** `dir`/`name` as Verdict names it (the name given as bytes). */
export const byteNamePath = (dir: string, name: Buffer): string => path.join(dir, decodeFileName(name));

/** Writes `content` to `dir`/`name` (bytes), making `dir` if need be; returns the path as Verdict names it. */
export function writeByteName(dir: string, name: Buffer, content: string | Buffer = 'x'): string {
  const full = byteNamePath(dir, name);
  mkdirSync(rawPath(dir), { recursive: true });
  writeFileSync(rawPath(full), content);
  return full;
}

/** Makes the folder `dir`/`name` (bytes); returns its path as Verdict names it. */
export function mkdirByteName(dir: string, name: Buffer): string {
  const full = byteNamePath(dir, name);
  mkdirSync(rawPath(full), { recursive: true });
  return full;
}

/**
 * A path as one shell word holding its exact bytes: `"$(printf '\143\157…')"`. Node hands a child's
 * string arguments over as UTF-8, so a name that is not UTF-8 reaches a CLI only through a shell.
 */
export function shellWord(verdictPath: string): string {
  const octal = [...rawPath(verdictPath)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
  return `"$(printf '${octal}')"`;
}

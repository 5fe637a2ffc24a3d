// path.resolve without a new string when there is nothing to resolve: an absolute path with no
// empty, "." or ".." segment and no trailing separator is returned as it is. The walk meets every
// file's path this way a few times (a 20,000-file scan: about 35 MB of strings on the core's thread).
import path from 'node:path';

/** Any empty, "." or ".." segment, or a trailing separator (a root alone is resolved as it is). */
const UNRESOLVED = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** The same string as path.resolve(value) gives on this platform. */
export function resolvedPath(value: string): string {
  if (process.platform === 'win32' || !value.startsWith('/') || UNRESOLVED.test(value)) return path.resolve(value);
  return value;
}

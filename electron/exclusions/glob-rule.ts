// Exclusion globs, compiled once. Node's path.matchesGlob (no dependency) with
// two adjustments: wildcards also match names that start with a dot (as in
// .gitignore: `**/*.iso` must find `~/.cache/a.iso`), and a pattern that
// matches a folder matches everything in it (and `build/**` the folder `build` itself).
import path from 'node:path';

export interface GlobRule {
  readonly pattern: string;
  /** Tests a `/`-separated path, already case-folded when the platform ignores case. */
  matches(slashPath: string): boolean;
  /** Whether everything in this folder matches (so it need not be walked): `build/**` and `build/*` cover `build`. */
  matchesFolder(slashPath: string): boolean;
}

/**
 * Every segment of both the path and the pattern gets the same plain prefix, so
 * no segment starts with a dot any more and `*`, `?` and `**` reach dot-names
 * (Node's matcher has no `dot` option). `**` segments and empty ones (a leading
 * `/`) stay as they are. Braces must not span a `/` (checked on compile).
 */
const SEGMENT_PREFIX = 'x';
export const prefixSegments = (slashPath: string): string =>
  slashPath
    .split('/')
    .map((segment) => (segment === '' || segment === '**' ? segment : SEGMENT_PREFIX + segment))
    .join('/');

export type GlobAnchor =
  /** Pattern without `/`: a name at any depth (the file's own or a folder's it is in). */
  | 'name'
  /** Pattern with `/`, relative: from the top of the path it is tested on (a watched folder). */
  | 'top'
  /** Pattern with `/`, relative, global rules: may start at any depth. */
  | 'any-depth'
  /** Absolute pattern (`/…`, `C:/…`, `~/…` expanded): the whole path. */
  | 'absolute';

export interface CompileGlobOptions {
  /** How a relative pattern with a `/` is anchored: `top` for a folder's rules, `any-depth` for global ones. */
  relative: 'top' | 'any-depth';
  foldCase: boolean;
  windows: boolean;
  homeDir: string;
}

/** Compiles a pattern; throws a TypeError with a reason when it cannot be used. */
export function compileGlob(raw: string, options: CompileGlobOptions): GlobRule & { anchor: GlobAnchor } {
  let pattern = raw.trim();
  if (options.windows) pattern = pattern.replaceAll('\\', '/');
  if (pattern === '~' || pattern.startsWith('~/')) pattern = toSlashes(options.homeDir, options.windows) + pattern.slice(1);
  pattern = pattern.replace(/\/+$/, '');
  if (pattern === '' || pattern === '**') throw new TypeError('an empty pattern (or one that matches everything) is not an exclusion');
  if (/\{[^}]*\/[^}]*\}/.test(pattern)) throw new TypeError('braces cannot contain "/"; write two patterns instead');
  const absolute = pattern.startsWith('/') || /^[A-Za-z]:\//.test(pattern);
  const anchor: GlobAnchor = absolute ? 'absolute' : !pattern.includes('/') ? 'name' : options.relative;
  if (options.foldCase) pattern = pattern.toLowerCase();
  const anchored = (value: string) => prefixSegments(anchor === 'name' || anchor === 'any-depth' ? `**/${value.replace(/^\*\*\//, '')}` : value);
  const body = anchored(pattern);
  const inside = `${body}/**`;
  // `x/**` and `x/*` match every entry of a folder matching `x` (deeper ones through `inside`),
  // so that folder is excluded whole. `**/*` and the like say nothing about one folder.
  const rest = pattern.replace(/\/\*\*?$/, '');
  const whole = rest !== pattern && rest !== '' && rest !== '**' ? anchored(rest) : null;
  try {
    path.posix.matchesGlob('probe', body);
  } catch (error) {
    throw new TypeError(`not a valid pattern: ${(error as Error).message}`, { cause: error });
  }
  return {
    pattern: raw,
    anchor,
    // `inside`: the pattern names a folder the file is somewhere in.
    matches: (slashPath) => {
      const subject = prefixSegments(slashPath);
      return path.posix.matchesGlob(subject, body) || path.posix.matchesGlob(subject, inside);
    },
    matchesFolder: (slashPath) => {
      const subject = prefixSegments(slashPath);
      return path.posix.matchesGlob(subject, body) || path.posix.matchesGlob(subject, inside) || (whole !== null && path.posix.matchesGlob(subject, whole));
    },
  };
}

export const toSlashes = (value: string, windows: boolean): string => (windows ? value.replaceAll('\\', '/') : value);

// Decides whether a file is left out of scanning, and why: global and
// per-folder exclusions by path, glob and extension, and the size limit for
// automatic scans. Pure (no file access): the pipeline passes the size it has.
// An excluded file is listed as `skipped` with the reason, never dropped silently;
// an excluded folder is not walked or watched, and is listed once for everything in it.
import os from 'node:os';
import path from 'node:path';
import { resolvedPath } from '../file-names/resolved-path.ts';
import type { ExclusionParams, ExclusionReason } from '../../shared/scans/exclusion.ts';
import type { RecordError } from '../../shared/scans/record.ts';
import type { ExclusionRules } from '../../shared/settings/protection.ts';
import { MB } from '../../shared/service-contract/limits.ts';
import { compileGlob, toSlashes, type GlobRule } from './glob-rule.ts';

export interface ExclusionHit {
  reason: ExclusionReason;
  /** The rule that matched as the user wrote it (path, pattern, extension), or the size limit in bytes. */
  detail: string;
  /** Whose rule: the global ones or the watched folder's. */
  scope: 'global' | 'folder';
}

export interface FolderExclusions {
  id: string;
  /** The watched folder: relative path rules and patterns with `/` start here. */
  path: string;
  exclusions?: ExclusionRules;
  /** Overrides the global limit; null or absent: the global one. */
  maxAutoScanSize?: number | null;
}

export interface ExclusionConfig {
  global: { exclusions?: ExclusionRules; maxAutoScanSize?: number | null };
  perFolder?: readonly FolderExclusions[];
}

export interface ExclusionEnvironment {
  /** Decides case folding and separators (default process.platform): win32 and darwin compare paths case-insensitively. */
  platform?: NodeJS.Platform;
  /** For `~` (default os.homedir()). */
  homeDir?: string;
}

export interface CheckInput {
  /** Bytes, when known; the size limit is only checked with one. */
  size: number | null;
  /** The watched folder the file was found in (its own rules apply on top of the global ones). */
  folderId?: string;
  /** true for watched-folder scans: only they are limited by maxAutoScanSize. */
  automatic: boolean;
  /**
   * `folder`: a folder met while expanding or watching, excluded when every file in it would be
   * (path and glob rules; never extensions or the size limit). Default `file`.
   */
  kind?: 'file' | 'folder';
}

export interface InvalidRule {
  scope: 'global' | 'folder';
  folderId?: string;
  kind: 'path' | 'glob' | 'extension';
  rule: string;
  message: string;
}

export interface ExclusionMatcher {
  check(filePath: string, input: CheckInput): ExclusionHit | null;
  /**
   * The path and glob rules that apply in a watched folder (with the global ones) as one
   * comparable string: '' when none, so no folder in it can be excluded. The watcher prunes by
   * these and starts a folder over when they change.
   */
  folderRules(folderId: string): string;
  /** Rules that can never match (a relative global path, a malformed glob): for the settings view. */
  readonly invalid: readonly InvalidRule[];
}

interface CompiledRules {
  scope: 'global' | 'folder';
  /** Case-folded absolute paths, with the rule as written. */
  paths: Array<{ normalized: string; rule: string }>;
  globs: GlobRule[];
  /** Lowercase, without the leading dot; `.` + ext is what a name must end with. */
  extensions: Array<{ suffix: string; rule: string }>;
  /** For per-folder rules: the folder, to make relative paths. */
  root: string | null;
  maxAutoScanSize: number | null;
}

export function createExclusionMatcher(config: ExclusionConfig, env: ExclusionEnvironment = {}): ExclusionMatcher {
  const platform = env.platform ?? process.platform;
  const windows = platform === 'win32';
  const foldCase = windows || platform === 'darwin';
  const homeDir = env.homeDir ?? os.homedir();
  const pathApi = windows ? path.win32 : path.posix;
  const invalid: InvalidRule[] = [];
  const fold = (value: string) => (foldCase ? value.toLowerCase() : value);
  /**
   * Absolute, resolved, without a trailing separator (but a root stays a root), case-folded where paths ignore case.
   * This machine's paths by resolvedPath (no new string when there is nothing to resolve); another platform's by its path API.
   */
  const normalize = (value: string) => fold(platform === process.platform ? resolvedPath(value) : pathApi.resolve(value));

  const compile = (rules: ExclusionRules | undefined, scope: 'global' | 'folder', folder: FolderExclusions | null): CompiledRules => {
    const root = folder ? normalize(folder.path) : null;
    const note = (kind: InvalidRule['kind'], rule: string, message: string) =>
      invalid.push({ scope, ...(folder ? { folderId: folder.id } : {}), kind, rule, message });
    const compiled: CompiledRules = { scope, paths: [], globs: [], extensions: [], root, maxAutoScanSize: null };

    for (const rule of rules?.paths ?? []) {
      let value = rule.trim();
      if (value === '~' || value.startsWith('~/') || (windows && value.startsWith('~\\'))) value = homeDir + value.slice(1);
      if (!pathApi.isAbsolute(value)) {
        if (!folder) {
          note('path', rule, 'a global excluded path must be absolute (or start with ~/)');
          continue;
        }
        value = pathApi.join(folder.path, value);
      }
      compiled.paths.push({ normalized: normalize(value), rule });
    }
    for (const rule of rules?.globs ?? []) {
      try {
        compiled.globs.push(compileGlob(rule, { relative: folder ? 'top' : 'any-depth', foldCase, windows, homeDir }));
      } catch (error) {
        note('glob', rule, (error as Error).message);
      }
    }
    for (const rule of rules?.extensions ?? []) {
      const suffix = rule.trim().replace(/^\.+/, '').toLowerCase();
      if (suffix === '' || /[/\\\s]/.test(suffix)) {
        note('extension', rule, 'not an extension');
        continue;
      }
      compiled.extensions.push({ suffix: `.${suffix}`, rule });
    }
    return compiled;
  };

  const global = compile(config.global.exclusions, 'global', null);
  global.maxAutoScanSize = config.global.maxAutoScanSize ?? null;
  const folders = new Map<string, CompiledRules>();
  for (const folder of config.perFolder ?? []) {
    const compiled = compile(folder.exclusions, 'folder', folder);
    compiled.maxAutoScanSize = folder.maxAutoScanSize ?? null;
    folders.set(folder.id, compiled);
  }

  const under = (candidate: string, base: string) => {
    if (candidate === base) return true;
    const prefix = base.endsWith(pathApi.sep) ? base : base + pathApi.sep;
    return candidate.startsWith(prefix);
  };

  /** The path a rule set's globs are tested on: relative to its folder when inside it, else absolute. */
  const globSubject = (rules: CompiledRules, normalized: string) => {
    if (rules.root !== null && under(normalized, rules.root) && normalized !== rules.root) {
      return toSlashes(pathApi.relative(rules.root, normalized), windows);
    }
    return toSlashes(normalized, windows);
  };

  const byLocation = (rules: CompiledRules[], normalized: string, kind: 'file' | 'folder'): ExclusionHit | null => {
    for (const set of rules) {
      const hit = set.paths.find((rule) => under(normalized, rule.normalized));
      if (hit) return { reason: 'excluded_path', detail: hit.rule, scope: set.scope };
    }
    for (const set of rules) {
      if (set.globs.length === 0) continue;
      const subject = globSubject(set, normalized);
      const hit = set.globs.find((glob) => (kind === 'folder' ? glob.matchesFolder(subject) : glob.matches(subject)));
      if (hit) return { reason: 'excluded_glob', detail: hit.pattern, scope: set.scope };
    }
    return null;
  };

  const ruleSets = (folderId: string | undefined): CompiledRules[] => {
    const folder = folderId === undefined ? undefined : folders.get(folderId);
    return folder ? [global, folder] : [global];
  };

  return {
    invalid,
    check(filePath, input) {
      const normalized = normalize(filePath);
      const sets = ruleSets(input.folderId);
      const kind = input.kind ?? 'file';
      const located = byLocation(sets, normalized, kind);
      if (located || kind === 'folder') return located;
      const name = pathApi.basename(normalized).toLowerCase();
      for (const set of sets) {
        // Longer than the suffix: `.bashrc` has no extension "bashrc".
        const hit = set.extensions.find((ext) => name.length > ext.suffix.length && name.endsWith(ext.suffix));
        if (hit) return { reason: 'excluded_extension', detail: hit.rule, scope: set.scope };
      }
      if (input.automatic && typeof input.size === 'number') {
        const folder = input.folderId === undefined ? undefined : folders.get(input.folderId);
        const limit = folder?.maxAutoScanSize ?? global.maxAutoScanSize;
        if (limit !== null && input.size > limit) {
          return { reason: 'over_auto_scan_size', detail: String(limit), scope: folder?.maxAutoScanSize != null ? 'folder' : 'global' };
        }
      }
      return null;
    },
    folderRules(folderId) {
      const rules = ruleSets(folderId).flatMap((set) => [
        ...set.paths.map((rule) => `${set.scope} path ${rule.normalized}`),
        ...set.globs.map((glob) => `${set.scope} glob ${glob.pattern}`),
      ]);
      return rules.length === 0 ? '' : JSON.stringify(rules);
    },
  };
}

/** The settings as they will be once settings.ts has the protection fields (absent fields: no rules). */
export interface ExclusionSettings {
  exclusions?: ExclusionRules;
  maxAutoScanSize?: number | null;
  watchedFolders: ReadonlyArray<{ id: string; path: string; exclusions?: ExclusionRules; maxAutoScanSize?: number | null }>;
}

export function exclusionConfigFromSettings(settings: ExclusionSettings): ExclusionConfig {
  return {
    global: { exclusions: settings.exclusions, maxAutoScanSize: settings.maxAutoScanSize ?? null },
    perFolder: settings.watchedFolders.map((folder) => ({
      id: folder.id,
      path: folder.path,
      exclusions: folder.exclusions,
      maxAutoScanSize: folder.maxAutoScanSize ?? null,
    })),
  };
}

/**
 * A skipped record's error: the reason as its code, the English sentence, and the
 * parameters the UI words it from in its own language (shared/scans/exclusion.ts).
 */
export function exclusionError(hit: ExclusionHit, size: number | null = null, kind: 'file' | 'folder' = 'file'): RecordError {
  const params: ExclusionParams =
    hit.reason === 'over_auto_scan_size'
      ? { scope: hit.scope, target: 'file', limit: Number(hit.detail), ...(size === null ? {} : { size }) }
      : { scope: hit.scope, target: kind, rule: hit.detail };
  return { code: hit.reason, message: describeExclusion(hit, size, kind), params };
}

/** Plain-English text for ScanRecord.error.message of a skipped record (the code is the reason). */
export function describeExclusion(hit: ExclusionHit, size: number | null = null, kind: 'file' | 'folder' = 'file'): string {
  const whose = hit.scope === 'global' ? 'the global exclusions' : "this watched folder's exclusions";
  if (kind === 'folder' && hit.reason === 'excluded_path') return `Not scanned: ${hit.detail} is excluded in ${whose}; nothing in this folder was looked at.`;
  if (kind === 'folder' && hit.reason === 'excluded_glob') {
    return `Not scanned: the folder matches the pattern "${hit.detail}" in ${whose}; nothing in it was looked at.`;
  }
  switch (hit.reason) {
    case 'excluded_path':
      return `Not scanned: ${hit.detail} is excluded in ${whose}.`;
    case 'excluded_glob':
      return `Not scanned: it matches the pattern "${hit.detail}" in ${whose}.`;
    case 'excluded_extension':
      return `Not scanned: files ending in .${hit.detail.replace(/^\.+/, '')} are excluded in ${whose}.`;
    case 'over_auto_scan_size': {
      const limit = Number(hit.detail);
      const actual = size === null ? 'larger than' : `${megabytes(size)}, over`;
      const set = hit.scope === 'global' ? 'the settings' : "this watched folder's settings";
      return `Not scanned automatically: it is ${actual} the ${megabytes(limit)} limit for automatic scans in ${set}. Scan it by hand to check it.`;
    }
  }
}

function megabytes(bytes: number): string {
  const value = bytes / MB;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}

// Which files and folders a command line names: used for the first launch
// ("Open with Verdict", `verdict file.exe`) and for a second launch that hands
// its arguments to the running app. Pure, so it is tested without Electron.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export interface ArgvOptions {
  /** Resolves relative paths (the launching shell's working directory). */
  cwd: string;
  /**
   * Leading entries that are not arguments: 1 for a packaged app (the executable),
   * 2 for `electron .` in development (the executable and the app folder).
   */
  skip: number;
}

const URL_WITH_SCHEME = /^[a-z][a-z0-9+.-]+:\/\//i;

/**
 * File and folder paths named by `argv`, absolute, in order, without duplicates.
 * Skips flags and Chromium/Electron switches (`--foo`, `--foo=bar`, macOS `-psn_…`);
 * after a lone `--` everything is a path. `file://` URLs (desktop files with %U)
 * become paths; other URLs are ignored.
 */
export function pathsFromArgv(argv: readonly string[], options: ArgvOptions): string[] {
  const found: string[] = [];
  let onlyPaths = false;
  for (const arg of argv.slice(Math.max(0, options.skip))) {
    if (typeof arg !== 'string' || arg.length === 0 || arg.includes('\0')) continue;
    if (!onlyPaths && arg === '--') {
      onlyPaths = true;
      continue;
    }
    if (!onlyPaths && arg.startsWith('-')) continue;
    const resolved = resolveArg(arg, options.cwd);
    if (resolved && !found.includes(resolved)) found.push(resolved);
  }
  return found;
}

function resolveArg(arg: string, cwd: string): string | null {
  if (arg.toLowerCase().startsWith('file://')) {
    try {
      return path.resolve(fileURLToPath(arg));
    } catch {
      return null;
    }
  }
  if (URL_WITH_SCHEME.test(arg)) return null;
  return path.resolve(cwd, arg);
}

/**
 * What a second instance sends along with `requestSingleInstanceLock`: its own argv
 * and working directory, which are exact (the `argv` Electron passes to
 * `second-instance` may be reordered and carry extra Chromium switches).
 */
export const launchDataSchema = z.object({
  argv: z.array(z.string().max(32_768)).max(10_000),
  cwd: z.string().min(1).max(4096),
  /** `process.defaultApp`: launched as `electron .`, so argv[1] is the app folder. */
  defaultApp: z.boolean(),
});
export type LaunchData = z.infer<typeof launchDataSchema>;

export function launchDataOf(process: { argv: readonly string[]; cwd(): string; defaultApp?: boolean }): LaunchData {
  return { argv: [...process.argv], cwd: process.cwd(), defaultApp: Boolean(process.defaultApp) };
}

/** Paths from a launch: the first one (own process) or a second one (its launch data). */
export function pathsFromLaunch(data: LaunchData): string[] {
  return pathsFromArgv(data.argv, { cwd: data.cwd, skip: data.defaultApp ? 2 : 1 });
}

/**
 * Paths from a `second-instance` event: the launch data when it is well formed,
 * else Electron's argv and working directory, skipping as many leading entries as
 * this (first) instance's own launch mode implies.
 */
export function pathsFromSecondInstance(
  event: { argv: readonly string[]; workingDirectory: string; additionalData: unknown },
  fallbackSkip: number,
): string[] {
  const data = launchDataSchema.safeParse(event.additionalData);
  if (data.success) return pathsFromLaunch(data.data);
  return pathsFromArgv(event.argv, { cwd: event.workingDirectory, skip: fallbackSkip });
}

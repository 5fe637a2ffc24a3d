// Catch-up: which files that are already there a folder's (re)start reports. A folder
// that stopped being observed (paused, missing, in error, closed app) remembers since
// when, so its next start reports what changed in between and nothing older.
import type { Stats } from 'node:fs';

export type InitialPolicy = { kind: 'none' } | { kind: 'all' } | { kind: 'since'; since: number };

export const NONE: InitialPolicy = { kind: 'none' };
export const ALL: InitialPolicy = { kind: 'all' };
export const since = (time: number): InitialPolicy => ({ kind: 'since', since: time });

/** The policy that reports everything either one reports. */
export function mergePolicies(a: InitialPolicy, b: InitialPolicy): InitialPolicy {
  if (a.kind === 'all' || b.kind === 'all') return ALL;
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  return since(Math.min(a.since, b.since));
}

/**
 * Whether a file found by the initial scan of a start is to be reported. `margin`: how much
 * further back than `since` a catch-up looks (files still settling when observation stopped).
 */
export function admits(policy: InitialPolicy, stats: Stats | undefined, margin: number): boolean {
  if (policy.kind !== 'since' || !stats) return true;
  // ctime catches files moved or copied in with an old mtime (rename and copy set ctime).
  return Math.max(stats.mtimeMs, stats.ctimeMs) >= policy.since - margin;
}

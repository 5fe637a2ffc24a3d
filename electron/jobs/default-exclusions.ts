// The folders a full scan leaves out by default: caches and trash, which are large,
// churn constantly and hold nothing the user opens, and Verdict's own data folder
// (its quarantine holds the threats it found). Each one is listed with the job and
// every one met becomes one skipped row: nothing is left out silently.
// node_modules is walked: installed packages are a real way in for malware.
import path from 'node:path';
import type { RecordError, ScanRecord } from '../../shared/scans/record.ts';
import { isWithin } from '../intake/link-outside.ts';
import type { JobPlaces } from './job-roots.ts';
import type { JobKind } from './job-state.ts';

const PER_OS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['.cache', '.local/share/Trash', '.thumbnails'],
  darwin: ['Library/Caches', '.Trash'],
  win32: ['AppData/Local/Microsoft/Windows/INetCache', 'AppData/Local/Microsoft/Windows/Explorer'],
};

/**
 * The folders a job of this kind leaves out (full scans: caches, trash; every kind: Verdict's data folder);
 * given the job's roots, only those inside one of them: a folder the walk can never meet is not worth a word.
 */
export function defaultExclusions(kind: JobKind, places: JobPlaces, dataDir: string, roots?: readonly string[]): string[] {
  const join = places.platform === 'win32' ? path.win32.join : path.join;
  const own = kind === 'full' ? (PER_OS[places.platform] ?? PER_OS.linux!).map((relative) => join(places.home, relative)) : [];
  const all = [...own, path.resolve(dataDir)];
  return roots === undefined ? all : all.filter((folder) => roots.some((root) => isWithin(folder, root)));
}

/** The skipped row's error for a folder the job's defaults leave out (worded like an excluded path). */
export function jobExclusionError(folder: string): RecordError {
  return {
    code: 'excluded_path',
    message: `Not scanned: ${folder} is left out by this scan's default exclusions (caches, trash, Verdict's own data); nothing in this folder was looked at.`,
    params: { scope: 'global', target: 'folder', rule: folder },
  };
}

/** The skipped row's error for a folder a saved scan's settings leave out (named, so it never reads as a default). */
export function savedScanExclusionError(folder: string, name: string): RecordError {
  return {
    code: 'excluded_path',
    message: `Not scanned: ${folder} is excluded in the settings of the saved scan “${name}”; nothing in this folder was looked at.`,
    params: { scope: 'saved', target: 'folder', rule: folder, name },
  };
}

/** Whether a skipped row is one of the job's default exclusions (the CLI's exit code leaves these out: they are the job's design, not a problem). */
export function isDefaultExclusionSkip(record: Pick<ScanRecord, 'status' | 'error'>, excluded: readonly string[]): boolean {
  const rule = record.error?.params?.rule;
  return record.status === 'skipped' && record.error?.code === 'excluded_path' && typeof rule === 'string' && excluded.includes(rule);
}

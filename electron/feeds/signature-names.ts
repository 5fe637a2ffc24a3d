// Which feed a finding came from. clamd names a finding by its signature only, with `.UNOFFICIAL`
// for every database that is not an official signed one, never by its file. So when a feed file is
// installed, the names of its signatures are kept beside it (sigtool --list-sigs, as libclamav
// parses the file; `YARA.<rule>` for YARA rules, as clamd reports them), and a finding named
// `<name>.UNOFFICIAL` from Verdict's own clamd is looked up among the installed feeds' names.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findExecutable } from '../engine/own-clamd/find-clamav.ts';
import { readFeedsState } from './feeds-state.ts';

const UNOFFICIAL = '.UNOFFICIAL';

export function findSigtool(clamscan: string | null): string | null {
  return findExecutable('sigtool', clamscan === null ? [] : [join(clamscan, '..', 'sigtool')]);
}

/** The signature names in a database file; empty when they cannot be listed (the feed still works, unnamed). */
export async function listSignatureNames(file: string, sigtool: string | null): Promise<string[]> {
  if (/\.yara?$/i.test(file)) {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/^\s*(?:(?:private|global)\s+)*rule\s+([A-Za-z_][A-Za-z0-9_]{0,127})\b/gm)].map((match) => `YARA.${match[1]}`);
  }
  if (sigtool === null) return [];
  return new Promise((done) => {
    // sigtool wants a path it can tell from a database name: an absolute one.
    execFile(sigtool, [`--list-sigs=${resolve(file)}`], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', timeout: 120_000 }, (error, stdout) => {
      done(error ? [] : stdout.split('\n').map((line) => line.trim()).filter((line) => line !== ''));
    });
  });
}

export function namesPath(namesDir: string, file: string): string {
  return join(namesDir, `${file}.names`);
}

export function writeSignatureNames(namesDir: string, file: string, names: readonly string[]): void {
  mkdirSync(namesDir, { recursive: true, mode: 0o700 });
  const path = namesPath(namesDir, file);
  writeFileSync(`${path}.tmp`, names.join('\n'), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

export function removeSignatureNames(namesDir: string, file: string): void {
  rmSync(namesPath(namesDir, file), { force: true });
}

/** Names files read once and kept until they change (their mtime): a finding is rare, a feed's names many. */
const cache = new Map<string, { mtimeMs: number; names: Set<string> }>();

function namesOf(path: string): Set<string> {
  const mtimeMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) return new Set();
  const cached = cache.get(path);
  if (cached?.mtimeMs === mtimeMs) return cached.names;
  const names = new Set(readFileSync(path, 'utf8').split('\n'));
  cache.set(path, { mtimeMs, names });
  return names;
}

/**
 * The feeds (their names) whose installed files hold the signature of this finding, or null: an
 * official signature, a database of the user's own, or a feed file changed since. Several feeds
 * holding the same name are all named: clamd does not tell which one fired.
 */
export function feedOfFinding(dataDir: string, findingName: string): string | null {
  if (!findingName.endsWith(UNOFFICIAL)) return null;
  const name = findingName.slice(0, -UNOFFICIAL.length);
  const state = readFeedsState(dataDir);
  const feeds: string[] = [];
  for (const feed of state.feeds) {
    if (!feed.enabled) continue;
    const installed = feed.files.map((file) => file.file).filter((file): file is string => file !== null);
    if (installed.some((file) => namesOf(namesPath(state.namesDir, file)).has(name))) feeds.push(feed.name);
  }
  return feeds.length === 0 ? null : feeds.join(', ');
}

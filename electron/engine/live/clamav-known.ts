// "ClamAV is known to this installation": once a file was scanned by ClamAV here,
// a later run without it must not fall back to the built-in engine silently. The
// fact is kept in the service's data directory, with where ClamAV last answered.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineSource } from '../../../shared/engine/protection-state.ts';

export interface KnownClamav {
  source: Exclude<EngineSource, 'builtin'>;
  where: string;
  /** When ClamAV last answered (ISO). */
  at: string;
}

const FILE = 'clamav-known.json';
const SOURCES = new Set(['configured', 'system', 'own', 'found']);

export function readKnownClamav(dataDir: string): KnownClamav | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<KnownClamav>;
    if (typeof value.where !== 'string' || typeof value.at !== 'string' || !SOURCES.has(String(value.source))) return null;
    return { source: value.source as KnownClamav['source'], where: value.where, at: value.at };
  } catch {
    return null;
  }
}

/** Best effort: a data directory that cannot be written loses only this memory, never a scan. */
export function writeKnownClamav(dataDir: string, known: KnownClamav): void {
  const path = join(dataDir, FILE);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(`${path}.tmp`, `${JSON.stringify(known)}\n`, { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  } catch {
    // ignored: see above
  }
}

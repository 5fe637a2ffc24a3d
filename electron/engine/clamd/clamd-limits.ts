// The clamd.conf settings the session client sizes itself by: how many commands it keeps
// in flight (MaxThreads, MaxQueue), how often it pings a busy session (ReadTimeout) and
// which files INSTREAM cannot carry (StreamMaxLength). Read from clamd's config when
// Verdict knows it (its own clamd, a readable system config), else clamd's defaults.
import { readFile } from 'node:fs/promises';

export interface ClamdLimits {
  maxThreads: number;
  maxQueue: number;
  /** Seconds clamd waits for the next command on a connection before it ends it (and its scans). */
  readTimeoutS: number;
  /** Bytes one INSTREAM may carry. */
  streamMaxLength: number;
}

/** clamd's own defaults (clamd.conf(5), ClamAV 1.4). */
export const CLAMD_LIMIT_DEFAULTS: ClamdLimits = {
  maxThreads: 10,
  maxQueue: 100,
  readTimeoutS: 120,
  streamMaxLength: 100 * 1024 * 1024,
};

const NUMBERS: Record<string, keyof ClamdLimits> = {
  maxthreads: 'maxThreads',
  maxqueue: 'maxQueue',
  readtimeout: 'readTimeoutS',
  streammaxlength: 'streamMaxLength',
};

/** clamd's SIZE values: a number with an optional k/K or m/M suffix (G too, for good measure). */
function sizeValue(text: string): number | null {
  const match = /^(\d{1,15})([kKmMgG]?)$/.exec(text);
  if (!match) return null;
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase()] ?? 1;
  return Number(match[1]) * scale;
}

/** The limits a clamd.conf sets; what it does not set (or sets unreadably) is left out. */
export function parseClamdLimits(configText: string): Partial<ClamdLimits> {
  const found: Partial<ClamdLimits> = {};
  for (const raw of configText.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [name = '', value = ''] = line.split(/\s+/, 2);
    const key = NUMBERS[name.toLowerCase()];
    if (key === undefined) continue;
    const number = key === 'streamMaxLength' ? sizeValue(value) : /^\d{1,9}$/.test(value) ? Number(value) : null;
    if (number !== null) found[key] = number;
  }
  return found;
}

/** The limits in a clamd.conf Verdict can read; an unreadable one gives none (the defaults apply). */
export async function readClamdLimits(configPath: string): Promise<Partial<ClamdLimits>> {
  const text = await readFile(configPath, 'utf8').catch(() => null);
  return text === null ? {} : parseClamdLimits(text);
}

export function withDefaults(limits: Partial<ClamdLimits> | undefined): ClamdLimits {
  return { ...CLAMD_LIMIT_DEFAULTS, ...limits };
}

/**
 * Commands kept in flight on one session. By default two fewer than clamd's threads, which
 * leaves two to its other clients (clamdscan, on-access scanning, another Verdict session):
 * 8 with clamd's defaults. A requested number is honoured. Never over half of MaxQueue:
 * clamd counts every queued scan of every client there, and a full queue stalls all of them.
 */
export function inFlightLimit(limits: ClamdLimits, requested?: number): number {
  const ceiling = Math.max(1, Math.floor(limits.maxQueue / 2));
  const wanted = requested !== undefined && Number.isFinite(requested) ? Math.floor(requested) : limits.maxThreads - 2;
  return Math.min(ceiling, Math.max(1, wanted));
}

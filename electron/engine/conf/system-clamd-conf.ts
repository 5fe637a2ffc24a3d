// What a system clamd's config file says about the limits Verdict runs into:
// Debian's /etc/clamav/clamd.conf sets StreamMaxLength 25M, so files above it fail
// until the user raises it. Read only when readable; never written.
import { readFileSync } from 'node:fs';
import type { StreamLimit } from '../../../shared/engine/protection-state.ts';

export const SYSTEM_CLAMD_CONF = '/etc/clamav/clamd.conf';

/** clamd's StreamMaxLength when the config file does not set it (ClamAV 1.x). */
const DEFAULT_STREAM_MAX_LENGTH = 100 * 1024 * 1024;

export interface ClamdConfFacts {
  localSocket: string | null;
  streamLimit: StreamLimit;
  /** DatabaseDirectory, when the file sets it: the folder whose databases the signature identity digests. */
  databaseDir: string | null;
  /** SelfCheck: how often clamd looks for changed databases and reloads them, in seconds (0: never). */
  selfCheckSeconds: number;
}

/** clamd's SelfCheck when the config file does not set it (ClamAV 1.x). */
const DEFAULT_SELF_CHECK_SECONDS = 600;

/** null when the file cannot be read. */
export function readClamdConf(configPath: string = SYSTEM_CLAMD_CONF): ClamdConfFacts | null {
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch {
    return null;
  }
  const settings = parseClamdConf(text);
  const stream = settings.get('streammaxlength');
  const bytes = stream === undefined ? DEFAULT_STREAM_MAX_LENGTH : parseSize(stream);
  return {
    localSocket: settings.get('localsocket') ?? null,
    streamLimit: { bytes: bytes ?? DEFAULT_STREAM_MAX_LENGTH, configPath },
    databaseDir: settings.get('databasedirectory') ?? null,
    selfCheckSeconds: selfCheckOf(settings.get('selfcheck')),
  };
}

function selfCheckOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SELF_CHECK_SECONDS;
  return /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : DEFAULT_SELF_CHECK_SECONDS;
}

/** `Option value` lines; `#` comments; option names are case-insensitive; the last one wins. */
export function parseClamdConf(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(\S+)\s+(.*)$/.exec(line);
    if (match?.[1] && match[2] !== undefined) settings.set(match[1].toLowerCase(), match[2].trim());
  }
  return settings;
}

/** clamd's sizes: bytes, or with a K, M or G suffix (binary). null when not a size. */
export function parseSize(value: string): number | null {
  const match = /^(\d{1,12})\s*([kKmMgG]?)[bB]?$/.exec(value.trim());
  if (!match?.[1]) return null;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase()] ?? 1;
  return Number(match[1]) * unit;
}

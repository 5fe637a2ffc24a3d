// Who made a verdict: ClamAV (its version, and its signatures' version and date
// when clamd reports them) or the built-in engine. Parsed from clamd's VERSION
// answer; pure, so the renderer can word it too.

export const ENGINE_NAMES = ['clamav', 'builtin'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export interface SignatureInfo {
  /** The daily database's version, e.g. 27467. */
  version: number;
  /** When that database was built, ISO 8601 (UTC). */
  date: string;
}

/**
 * What a ClamAV identity's signatures are known by: `databases`, a digest of every database file
 * in the folder clamd loads together with its VERSION line (Verdict could read that folder);
 * `version`, the VERSION line alone (the official daily version, when there is one).
 */
export const SIGNATURE_BASES = ['databases', 'version'] as const;
export type SignatureBasis = (typeof SIGNATURE_BASES)[number];

export interface EngineIdentity {
  name: EngineName;
  /** ClamAV's own version, e.g. `1.4.6`; null for the built-in engine. */
  version: string | null;
  /** null when clamd reports none (custom databases only) and for the built-in engine. */
  signatures: SignatureInfo | null;
  /**
   * ClamAV only. Absent: the signatures are known by the VERSION line alone (Verdict cannot read
   * the clamd's database folder, or the verdict was made before the basis was recorded).
   */
  signatureBasis?: SignatureBasis;
  /** With basis `databases`: sha256 (hex) of the database folder and the VERSION line (database-digest.ts). */
  databases?: string;
  /**
   * ClamAV run by Verdict: its detection settings (PUA, limits, archives, heuristics) as
   * detectionKey() names them; absent for the defaults and for a clamd Verdict does not configure.
   */
  detection?: string;
  /**
   * `failed`: the verdict was given while the last self-test of this engine, with these signatures,
   * failed (it did not detect the EICAR test file; shared/engine/self-test.ts). Absent otherwise.
   */
  selfTest?: 'failed';
}

export const BUILTIN_IDENTITY: EngineIdentity = { name: 'builtin', version: null, signatures: null };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// `ClamAV 1.4.6` or `ClamAV 1.4.6/27467/Mon Nov 24 09:21:02 2026` (ctime of the daily database).
const VERSION_LINE = /^ClamAV ([0-9][0-9A-Za-z.+~_-]{0,63})(?:\/(\d{1,12})\/(.+))?$/;
const CTIME = /^(?:[A-Z][a-z]{2}) +([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/**
 * The identity in clamd's VERSION answer, or null when the line is not one.
 * A dated form whose date cannot be read keeps the version and loses the signatures:
 * an unreadable date must never count as fresh.
 */
export function parseClamdVersion(line: string): EngineIdentity | null {
  const match = VERSION_LINE.exec(line.trim());
  if (!match?.[1]) return null;
  const version = match[1];
  if (match[2] === undefined || match[3] === undefined) return { name: 'clamav', version, signatures: null };
  const signatureVersion = Number(match[2]);
  const date = parseCtime(match[3].trim());
  if (!Number.isSafeInteger(signatureVersion) || date === null) return { name: 'clamav', version, signatures: null };
  return { name: 'clamav', version, signatures: { version: signatureVersion, date } };
}

/**
 * clamd prints the database's build time with ctime() in its own time zone, which the
 * answer does not name; it is read as UTC (off by at most a day's hours, well inside
 * the 3-day freshness window).
 */
function parseCtime(text: string): string | null {
  const match = CTIME.exec(text);
  if (!match) return null;
  const [, monthName, day, hours, minutes, seconds, year] = match;
  const month = MONTHS.indexOf(monthName ?? '');
  if (month < 0) return null;
  const values = [day, hours, minutes, seconds, year].map(Number) as [number, number, number, number, number];
  const [d, h, m, s, y] = values;
  if (d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return null;
  const time = Date.UTC(y, month, d, h, m, Math.min(s, 59));
  const check = new Date(time);
  // 31 Feb would roll over into March: not a real date.
  if (check.getUTCMonth() !== month || check.getUTCDate() !== d) return null;
  return check.toISOString();
}

/** Whole days since the signatures were built (0 on the day itself; never negative). */
export function signatureAgeDays(signatures: SignatureInfo, now: Date): number {
  const age = now.getTime() - Date.parse(signatures.date);
  return Math.max(0, Math.floor(age / 86_400_000));
}

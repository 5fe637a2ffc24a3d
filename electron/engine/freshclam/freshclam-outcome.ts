// What a freshclam run did, in words Verdict can show: read from its output
// (freshclam 1.x prints one line per database and fixed sentences for each failure)
// and its exit code. Recorded sentences are in the tests.

export type FreshclamOutcome =
  | { kind: 'updated'; version: number | null; databases: string[] }
  | { kind: 'current'; version: number | null }
  | { kind: 'no_connection'; detail: string }
  /** The CDN answered 429 (rate limited): freshclam waits until `until` (its local time) before it asks again. */
  | { kind: 'cool_down'; until: string | null }
  /** The CDN answered 403 (blocked, or a ClamAV too old for it); freshclam also waits until `until`. */
  | { kind: 'mirror_refused'; until: string | null }
  | { kind: 'disk_full'; detail: string }
  | { kind: 'not_writable'; detail: string }
  | { kind: 'failed'; detail: string };

export type FreshclamOutcomeKind = FreshclamOutcome['kind'];

const UPDATED = /^(?:\S+ )?([\w-]+)\.c[vl]d updated \(version: (\d+)/gm;
const CURRENT = /^(?:\S+ )?([\w-]+)\.c[vl]d database is up-to-date \(version: (\d+)/gm;
// A DatabaseCustomURL's file: `sanesecurity.ndb updated (version: custom database, sigs: 1)`,
// `sanesecurity.ndb is up-to-date (version: custom database)`.
const CUSTOM_UPDATED = /^(?:\S+ )?([\w.-]+) updated \(version: custom database/gm;
const CUSTOM_CURRENT = /^(?:\S+ )?([\w.-]+) is up-to-date \(version: custom database/gm;
const COOL_DOWN = /on cool-down until after: ([^\n]+)/;

export function freshclamOutcome(output: string, exitCode: number | null): FreshclamOutcome {
  const until = COOL_DOWN.exec(output)?.[1]?.trim() ?? null;
  if (/No space left on device|ENOSPC|disk (?:is )?full/i.test(output)) return { kind: 'disk_full', detail: errorLines(output) };
  if (/error code 403/.test(output)) return { kind: 'mirror_refused', until };
  if (/error code 429|error code 429 or 403|cool-down until/.test(output)) return { kind: 'cool_down', until };
  if (/Can't create freshclam\.dat|must be writable|Can't change dir to|Permission denied|Can't write to/i.test(output)) {
    return { kind: 'not_writable', detail: errorLines(output) };
  }

  const updated = matches(UPDATED, output);
  const current = matches(CURRENT, output);
  const customUpdated = [...output.matchAll(CUSTOM_UPDATED)].map((match) => match[1] ?? '');
  const customCurrent = [...output.matchAll(CUSTOM_CURRENT)];
  const version = dailyVersion([...updated, ...current]);
  if (exitCode === 0 && updated.length + customUpdated.length > 0) return { kind: 'updated', version, databases: [...updated.map(([name]) => name), ...customUpdated] };
  if (exitCode === 0 && current.length + customCurrent.length > 0) return { kind: 'current', version };

  if (/Couldn't (?:connect to server|resolve host)|Download failed \((?:5|6|7|28|35|56)\)|Connection failed|HTTP GET failed|Can't query/i.test(output)) {
    return { kind: 'no_connection', detail: errorLines(output) };
  }
  return { kind: 'failed', detail: errorLines(output) || `freshclam ended with exit code ${exitCode}` };
}

function matches(pattern: RegExp, text: string): [string, number][] {
  return [...text.matchAll(pattern)].map((match) => [match[1] ?? '', Number(match[2])]);
}

/** The daily database's version is the one clamd reports as the signature version. */
function dailyVersion(databases: [string, number][]): number | null {
  return databases.find(([name]) => name === 'daily')?.[1] ?? databases[0]?.[1] ?? null;
}

/** freshclam's last error lines, its own words for a failure. */
function errorLines(output: string): string {
  const errors = output.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('ERROR:'));
  return [...new Set(errors)].slice(-2).join(' | ').slice(0, 600);
}

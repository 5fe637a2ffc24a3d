// The freshclam.conf Verdict writes into its data directory: updates go into
// Verdict's own database folder only, as the user running Verdict. A user's
// `freshclam-extra.conf` beside it adds mirrors, proxies and extra databases.
import { userInfo } from 'node:os';

/** The file in the data directory whose lines join the config Verdict writes. */
export const FRESHCLAM_EXTRA_FILE = 'freshclam-extra.conf';

/**
 * What `freshclam-extra.conf` may set. Where freshclam's files go, who owns them and
 * whom freshclam notifies stay Verdict's, so DatabaseDirectory, DatabaseOwner,
 * NotifyClamd, OnUpdateExecute and the like are not among them.
 */
const EXTRA_KEYS = [
  'DatabaseMirror',
  'PrivateMirror',
  'DatabaseCustomURL',
  'ExtraDatabase',
  'ExcludeDatabase',
  'DNSDatabaseInfo',
  'ScriptedUpdates',
  'Bytecode',
  'TestDatabases',
  'CompressLocalDatabase',
  'MaxAttempts',
  'ConnectTimeout',
  'ReceiveTimeout',
  'HTTPProxyServer',
  'HTTPProxyPort',
  'HTTPProxyUsername',
  'HTTPProxyPassword',
  'HTTPUserAgent',
  'LocalIPAddress',
] as const;

export interface FreshclamExtra {
  /** The accepted lines, as `Key value`. */
  lines: string[];
  /** Keys Verdict did not take, for the progress output. */
  ignored: string[];
}

/** The accepted lines of a `freshclam-extra.conf` text; comments and blank lines are skipped. */
export function parseFreshclamExtra(text: string): FreshclamExtra {
  const lines: string[] = [];
  const ignored: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const key = EXTRA_KEYS.find((name) => name.toLowerCase() === line.split(/\s+/)[0]?.toLowerCase());
    if (key === undefined || !/\s/.test(line)) ignored.push(line.split(/\s+/)[0] ?? line);
    else lines.push(`${key} ${line.slice(key.length).trim()}`);
  }
  return { lines, ignored };
}

export function freshclamConfigText(input: { databaseDir: string; mirror?: string; maxAttempts?: number; extra?: readonly string[] }): string {
  const lines = [
    '# Written by Verdict for updates of its own signature folder; rewritten at every run.',
    `DatabaseDirectory ${input.databaseDir}`,
    // As root freshclam would switch to the `clamav` user, which cannot write Verdict's folder.
    `DatabaseOwner ${userInfo().username}`,
    `DatabaseMirror ${input.mirror ?? 'database.clamav.net'}`,
    // DNSDatabaseInfo stays at its default (current.cvd.clamav.net): the DNS check lets
    // freshclam skip downloads when nothing changed, which the CDN's rate limit asks for.
    // (freshclam 1.4 reads `DNSDatabaseInfo no` as a host named "no".)
    // Each failed attempt costs freshclam a 5 s pause.
    `MaxAttempts ${input.maxAttempts ?? 2}`,
    'ConnectTimeout 30',
    'ReceiveTimeout 300',
    'LogTime no',
    // No NotifyClamd: Verdict sends RELOAD to its own clamd itself after a successful update.
  ];
  const extra = input.extra ?? [];
  // A key the user's file sets replaces Verdict's default for it.
  const keyOf = (line: string) => line.split(' ')[0];
  const userKeys = new Set(extra.map(keyOf));
  const kept = lines.filter((line) => !userKeys.has(keyOf(line)));
  if (extra.length > 0) kept.push(`# From ${FRESHCLAM_EXTRA_FILE}:`, ...extra);
  return `${kept.join('\n')}\n`;
}

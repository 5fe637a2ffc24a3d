// The freshclam.conf Verdict writes into its data directory: updates go into
// Verdict's own database folder only, as the user running Verdict.
import { userInfo } from 'node:os';

export function freshclamConfigText(input: { databaseDir: string; mirror?: string; maxAttempts?: number }): string {
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
  return `${lines.join('\n')}\n`;
}

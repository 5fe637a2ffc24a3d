// Whose clamd answers at one of the usual socket paths, from a fact rather than the path:
// the socket's owner. clamd creates its socket as the account it runs as, so Debian's system
// clamd's belongs to `clamav`; a clamd the user started by hand belongs to the user (root
// included), wherever its socket is.
import { statSync } from 'node:fs';

/** `system` another account's clamd; `found` the user's own account's; `system` where owners are not known (Windows). */
export function usualSocketSource(socketPath: string, uid: number | undefined = process.getuid?.()): 'system' | 'found' {
  if (uid === undefined) return 'system';
  try {
    return statSync(socketPath).uid === uid ? 'found' : 'system';
  } catch {
    return 'system';
  }
}

// Reading the journal: entries as the UI sees them, by state, id or scan record, and
// whether content was restored to a path (a watched folder must not take it again).
import path from 'node:path';
import { ACTIVE_QUARANTINE_STATES, type QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { publicEntry, type QuarantineVault } from './quarantine-vault.ts';

/** Entries still in quarantine (default), or every entry ever, newest first. */
export const listEntries = (vault: QuarantineVault, options: { include?: 'active' | 'all' } = {}): QuarantineEntry[] =>
  vault.store.list(options.include === 'all' ? null : ACTIVE_QUARANTINE_STATES).map(publicEntry);

export function getEntry(vault: QuarantineVault, entryId: string): QuarantineEntry | null {
  const entry = vault.store.get(entryId);
  return entry ? publicEntry(entry) : null;
}

/** The newest entry for a scan record, if any. */
export function newestForRecord(vault: QuarantineVault, recordId: string): QuarantineEntry | null {
  const [newest] = vault.store.byRecord(recordId);
  return newest ? publicEntry(newest) : null;
}

export const wasRestoredTo = (vault: QuarantineVault, sha256: string, target: string): boolean =>
  typeof sha256 === 'string' && typeof target === 'string' && vault.store.wasRestoredTo(sha256, path.resolve(target));

// Deleting a quarantined file for good, on the user's request only: intent, unlink, done.
import type { QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { ok, type Result } from '../../shared/result.ts';
import { syncDirectory, unlinkForce } from './file-moves.ts';
import { fail, fileError } from './quarantine-errors.ts';
import { publicEntry, storedPath, withEntry, type QuarantineVault } from './quarantine-vault.ts';

export function deleteEntry(vault: QuarantineVault, entryId: string): Promise<Result<QuarantineEntry>> {
  return withEntry(vault, entryId, async (entry) => {
    const { store } = vault;
    if (entry.state !== 'quarantined' && entry.state !== 'lost') {
      return fail('invalid_state', `This file is not in quarantine (it is ${entry.state}).`);
    }
    store.update(entry.id, { state: 'deleting' });
    await vault.step('delete:intent', entry.id);
    try {
      await unlinkForce(storedPath(vault, entry));
      await syncDirectory(vault.filesDir);
    } catch (error) {
      store.update(entry.id, { state: entry.state });
      return fileError(error, storedPath(vault, entry));
    }
    await vault.step('delete:removed', entry.id);
    return ok(publicEntry(store.update(entry.id, { state: 'deleted', resolvedAt: vault.now() })!));
  });
}

// Restoring (or allowing) a quarantined file: the target is checked (its folder there,
// nothing in the way, not inside the quarantine), the stored copy's content verified,
// the intent journalled; then the file is put at the target without ever replacing
// anything, the stored copy removed and the entry closed. Allow also remembers the content.
import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';
import type { QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { ok, type Result } from '../../shared/result.ts';
import { fsPath } from '../file-names/fs-path.ts';
import { copyVerified, errorCode, exists, hashFile, placeWithoutReplacing, syncDirectory, syncParent, tryLink, unlinkForce } from './file-moves.ts';
import type { RestoreOptions } from './quarantine.ts';
import { fail, fileError, type Failure } from './quarantine-errors.ts';
import type { PendingAction, StoredEntry } from './quarantine-store.ts';
import { insideQuarantine, publicEntry, restoredMode, restorePartial, storedPath, withEntry, type QuarantineVault } from './quarantine-vault.ts';

export function restoreEntry(vault: QuarantineVault, entryId: string, options: RestoreOptions, action: PendingAction): Promise<Result<QuarantineEntry>> {
  return withEntry(vault, entryId, async (entry) => {
    if (entry.state !== 'quarantined') return fail('invalid_state', `This file is not in quarantine (it is ${entry.state}).`);
    const target = await restoreTarget(vault, entry, options);
    if (typeof target !== 'string') return target;

    const { store } = vault;
    const stored = storedPath(vault, entry);
    let current: string;
    try {
      current = (await hashFile(stored)).sha256;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return fileError(error, stored);
      store.update(entry.id, { state: 'lost', resolvedAt: vault.now() });
      return fail('file_lost', 'The quarantined file is missing from the quarantine folder; it cannot be restored.');
    }
    if (current !== entry.sha256) {
      return fail('hash_mismatch', 'The quarantined file no longer has the content that was quarantined; it was not restored.');
    }

    store.update(entry.id, { state: 'restoring', action, targetPath: target });
    await vault.step('restore:intent', entry.id);
    try {
      await placeAt(vault, entry, stored, target);
    } catch (error) {
      store.update(entry.id, { state: 'quarantined', action: null, targetPath: null });
      if (errorCode(error) === 'EEXIST') return fail('restore_conflict', `Something appeared at ${target}; choose another location.`);
      if (errorCode(error) === 'ENOENT') return fail('target_folder_missing', `The folder ${path.dirname(target)} is gone; choose another location.`);
      return fileError(error, target);
    }
    await vault.step('restore:placed', entry.id);
    await unlinkForce(stored);
    await syncDirectory(vault.filesDir);
    await vault.step('restore:stored-removed', entry.id);
    const done = await finishRestore(vault, entry, target, true, action);
    await vault.step('restore:done', entry.id);
    return ok(publicEntry(done));
  });
}

/** Where the file goes (the given location, else where it came from), or why it cannot go there. */
async function restoreTarget(vault: QuarantineVault, entry: StoredEntry, options: RestoreOptions): Promise<string | Failure> {
  if (options.to !== undefined && (typeof options.to !== 'string' || options.to === '')) {
    return fail('invalid_request', 'The location to restore to must be a file path.');
  }
  const target = options.to !== undefined ? path.resolve(options.to) : entry.originalPath;
  if (target === null) return fail('original_path_unknown', 'Where this file came from is not known; choose a location to restore it to.');
  if (insideQuarantine(vault, target)) return fail('invalid_target', 'A file cannot be restored into the quarantine folder.');
  const folder = await stat(fsPath(path.dirname(target))).catch(() => null);
  if (!folder?.isDirectory()) return fail('target_folder_missing', `The folder ${path.dirname(target)} does not exist; choose another location.`);
  if (await exists(target)) return fail('restore_conflict', `Something exists at ${target} already; choose another location.`);
  return target;
}

/** Puts the file at `target` (never replacing anything); the quarantined copy stays until the caller removes it. */
async function placeAt(vault: QuarantineVault, entry: StoredEntry, stored: string, target: string): Promise<void> {
  if (await tryLink(stored, target)) {
    await syncParent(target);
    return;
  }
  // Another device (or no hard links there): a verified copy in the target folder, then put in place.
  const partial = restorePartial(target, entry.id);
  await copyVerified(stored, partial, entry.sha256, { mode: 0o600 });
  await vault.step('restore:copied', entry.id);
  try {
    await placeWithoutReplacing(partial, target);
  } catch (error) {
    await unlinkForce(partial).catch(() => {});
    throw error;
  }
  await syncParent(target);
}

/** The file is at `target` and no longer in quarantine: its mode back, the entry closed (and its content allowed). */
export async function finishRestore(vault: QuarantineVault, entry: StoredEntry, target: string, setMode: boolean, action: PendingAction): Promise<StoredEntry> {
  const { store } = vault;
  if (setMode) await chmod(fsPath(target), restoredMode(entry.mode)).catch(() => {});
  const allowed = action === 'allow';
  return store.transaction(() => {
    const at = vault.now();
    if (allowed) store.allow({ sha256: entry.sha256, fileName: entry.fileName, allowedAt: at, entryId: entry.id, recordId: entry.recordId });
    return store.update(entry.id, { state: allowed ? 'allowed' : 'restored', action: null, targetPath: null, resolvedAt: at, restoredTo: target })!;
  });
}

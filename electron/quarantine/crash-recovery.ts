// recover(), run once at start: ends each journalled intent a crash left unfinished by
// looking at the file system (exactly one copy of the file stays, in quarantine or where
// it belongs), marks entries whose file vanished as lost, and lists stray stored files.
import { randomUUID } from 'node:crypto';
import { chmod, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { exists, hashFile, lstatOrNull, placeWithoutReplacing, syncDirectory, syncParent, unlinkForce } from './file-moves.ts';
import type { RecoveryReport } from './quarantine.ts';
import type { StoredEntry } from './quarantine-store.ts';
import { PARTIAL, QUARANTINED_FILE_MODE, restorePartial, storedPath, type QuarantineVault } from './quarantine-vault.ts';
import { finishRestore } from './restore-entry.ts';

const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function recover(vault: QuarantineVault): Promise<RecoveryReport> {
  const { store } = vault;
  const report: RecoveryReport = { completed: [], rolledBack: [], lost: [], adopted: [], strays: [], problems: [] };
  for (const entry of store.list(['quarantining', 'restoring', 'deleting'])) {
    if (vault.busy.has(`entry:${entry.id}`)) continue;
    try {
      if (entry.state === 'quarantining') await recoverQuarantine(vault, entry, report);
      else if (entry.state === 'restoring') await recoverRestore(vault, entry, report);
      else {
        await unlinkForce(storedPath(vault, entry));
        store.update(entry.id, { state: 'deleted', resolvedAt: vault.now() });
        report.completed.push(entry.id);
      }
    } catch (error) {
      report.problems.push({ id: entry.id, message: (error as Error).message });
    }
  }
  for (const entry of store.list(['quarantined'])) {
    if (!(await exists(storedPath(vault, entry)))) {
      store.update(entry.id, { state: 'lost', resolvedAt: vault.now() });
      report.lost.push(entry.id);
    }
  }
  await adoptOrphans(vault, report);
  return report;
}

async function recoverQuarantine(vault: QuarantineVault, entry: StoredEntry, report: RecoveryReport): Promise<void> {
  const { store } = vault;
  const stored = storedPath(vault, entry);
  const partial = stored + PARTIAL;
  const original = entry.originalPath;
  const atStore = await lstatOrNull(stored);
  const atOriginal = original ? await lstatOrNull(original) : null;
  const atPartial = await lstatOrNull(partial);

  if (atStore) {
    const storedHash = (await hashFile(stored)).sha256;
    if (storedHash !== entry.sha256) store.update(entry.id, { sha256: storedHash, size: atStore.size });
    // Both there after a cross-device copy (a rename never leaves two): the copy is verified, so the source goes.
    // On one device the file at the original path is a new one the user made since: it stays.
    if (original && atOriginal && atOriginal.dev !== atStore.dev && storedHash === entry.sha256) {
      const originalHash = await hashFile(original).catch(() => null);
      if (originalHash?.sha256 === entry.sha256) {
        await unlinkForce(original);
        await syncParent(original);
      }
    }
    if (atPartial) await unlinkForce(partial);
    await chmod(stored, QUARANTINED_FILE_MODE);
    store.update(entry.id, { state: 'quarantined' });
    report.completed.push(entry.id);
    return;
  }
  if (atPartial && !atOriginal) {
    // Only the copy is left (the source went by other means): keep it, whatever it holds.
    const partialHash = await hashFile(partial);
    await rename(partial, stored);
    await chmod(stored, QUARANTINED_FILE_MODE);
    store.update(entry.id, { state: 'quarantined', sha256: partialHash.sha256, size: partialHash.identity.size });
    report.completed.push(entry.id);
    return;
  }
  if (atPartial) await unlinkForce(partial);
  store.remove(entry.id);
  report.rolledBack.push({
    id: entry.id,
    recordId: entry.recordId,
    path: original,
    reason: atOriginal ? 'The file had not been moved yet; it is still at its original path.' : 'The file was gone before it could be moved.',
  });
}

async function recoverRestore(vault: QuarantineVault, entry: StoredEntry, report: RecoveryReport): Promise<void> {
  const { store } = vault;
  const stored = storedPath(vault, entry);
  const target = entry.targetPath;
  const back = async () => {
    if (target) await unlinkForce(restorePartial(target, entry.id));
    store.update(entry.id, { state: 'quarantined', action: null, targetPath: null });
    report.completed.push(entry.id);
  };
  if (!target) return back();
  const partial = restorePartial(target, entry.id);
  const atTarget = await lstatOrNull(target);
  const atStore = await lstatOrNull(stored);

  const forward = async (setMode: boolean) => {
    await unlinkForce(stored);
    await unlinkForce(partial);
    await syncDirectory(vault.filesDir);
    await finishRestore(vault, entry, target, setMode, entry.action ?? 'restore');
    report.completed.push(entry.id);
  };
  const targetHolds = async () => (await hashFile(target).catch(() => null))?.sha256 === entry.sha256;

  if (atTarget && atStore) {
    const sameFile = atTarget.dev === atStore.dev && atTarget.ino === atStore.ino;
    // Not the same file and not the same content: someone else's file is there; ours stays in quarantine.
    if (sameFile || (await targetHolds())) return forward(true);
    return back();
  }
  if (atTarget) return forward(await targetHolds());
  if (atStore) return back();
  // Neither: only a verified restore copy can be left.
  if ((await hashFile(partial).catch(() => null))?.sha256 === entry.sha256) {
    await placeWithoutReplacing(partial, target);
    return forward(true);
  }
  store.update(entry.id, { state: 'lost', action: null, resolvedAt: vault.now() });
  report.lost.push(entry.id);
}

/** Files in the quarantine folder without an entry are listed (adopted); partial copies nobody owns are reported, never deleted. */
async function adoptOrphans(vault: QuarantineVault, report: RecoveryReport): Promise<void> {
  const { store, filesDir } = vault;
  for (const name of await readdir(filesDir)) {
    if (name.endsWith(PARTIAL)) {
      const owner = store.byStoredName(name.slice(0, -PARTIAL.length));
      if (!owner || owner.state !== 'quarantining') report.strays.push(path.join(filesDir, name));
      continue;
    }
    if (!STORED_NAME.test(name) || store.byStoredName(name)) continue;
    try {
      const file = path.join(filesDir, name);
      const hashed = await hashFile(file);
      await chmod(file, QUARANTINED_FILE_MODE);
      store.insert({
        id: randomUUID(),
        storedName: name,
        originalPath: null,
        fileName: `unknown-${name.slice(0, 8)}`,
        size: hashed.identity.size,
        mode: 0o600,
        mtimeMs: hashed.identity.mtimeMs,
        sha256: hashed.sha256,
        recordId: null,
        state: 'quarantined',
        action: null,
        targetPath: null,
        quarantinedAt: vault.now(),
        resolvedAt: null,
        restoredTo: null,
      });
      report.adopted.push(name);
    } catch (error) {
      report.problems.push({ id: name, message: (error as Error).message });
    }
  }
}

// Quarantining a file: the intent is journalled, then the file moves into the quarantine
// folder by one rename (same device) or a verified copy, rename and unlink (another
// device), and gets mode 0400. A file whose content changed since its scan stays put.
import { randomUUID } from 'node:crypto';
import { chmod, rename } from 'node:fs/promises';
import path from 'node:path';
import type { QuarantineEntry } from '../../shared/quarantine/entry.ts';
import { ok, type Result } from '../../shared/result.ts';
import { exactRealpath, fsPath } from '../file-names/fs-path.ts';
import { copyVerified, errorCode, hashFile, lstatOrNull, sameIdentity, syncDirectory, syncParent, unlinkForce, type FileIdentity } from './file-moves.ts';
import type { QuarantineRequest } from './quarantine.ts';
import { fail, fileError } from './quarantine-errors.ts';
import type { StoredEntry } from './quarantine-store.ts';
import { exclusive, insideQuarantine, PARTIAL, publicEntry, QUARANTINED_FILE_MODE, storedPath, type QuarantineVault } from './quarantine-vault.ts';

const SHA256 = /^[0-9a-f]{64}$/;

/** The request's sha256 in lowercase, or null when it is not 64 hex digits. */
export function validSha256(request: { sha256?: unknown } | null | undefined): string | null {
  const sha256 = typeof request?.sha256 === 'string' ? request.sha256.toLowerCase() : '';
  return SHA256.test(sha256) ? sha256 : null;
}

export async function quarantineFile(vault: QuarantineVault, file: QuarantineRequest): Promise<Result<QuarantineEntry>> {
  const sha256 = validSha256(file);
  if (typeof file?.path !== 'string' || file.path === '' || sha256 === null) {
    return fail('invalid_request', 'A file path and the sha256 of the content that was scanned are needed.');
  }
  const recordId = file.recordId ?? null;
  if (recordId !== null) {
    // Asked again for the same scan (e.g. after a restart): the earlier quarantine stands.
    const earlier = vault.store.byRecord(recordId).find((entry) => entry.state === 'quarantined');
    if (earlier) return ok(publicEntry(earlier));
  }
  let source: string;
  try {
    // A link is not the threat, its target is: that file is moved (and restored to its own path).
    source = await exactRealpath(path.resolve(file.path));
  } catch (error) {
    return fileError(error, path.resolve(file.path));
  }
  if (insideQuarantine(vault, source)) return fail('invalid_request', 'This file is in the quarantine already.');
  return exclusive(vault, [`path:${source}`, ...(recordId ? [`record:${recordId}`] : [])], () => moveSource(vault, source, sha256, recordId));
}

/** Checks the content, journals the intent and moves the file in. */
async function moveSource(vault: QuarantineVault, source: string, sha256: string, recordId: string | null): Promise<Result<QuarantineEntry>> {
  const { store } = vault;
  let hashed: { sha256: string; identity: FileIdentity };
  try {
    hashed = await hashFile(source);
  } catch (error) {
    return fileError(error, source);
  }
  if (hashed.sha256 !== sha256) {
    return fail('hash_mismatch', `${source} changed since it was scanned, so it was not moved; scan it again.`);
  }
  const id = randomUUID();
  const entry: StoredEntry = {
    id,
    storedName: id,
    originalPath: source,
    fileName: path.basename(source),
    size: hashed.identity.size,
    mode: hashed.identity.mode & 0o7777,
    mtimeMs: hashed.identity.mtimeMs,
    sha256,
    recordId,
    state: 'quarantining',
    action: null,
    targetPath: null,
    quarantinedAt: vault.now(),
    resolvedAt: null,
    restoredTo: null,
  };
  store.insert(entry);
  await vault.step('quarantine:intent', id);
  try {
    await moveIn(vault, entry, source, hashed.identity);
  } catch (error) {
    // moveIn leaves the source where it was on failure: the intent is void.
    store.remove(id);
    return fileError(error, source);
  }
  await vault.step('quarantine:moved', id);
  await chmod(storedPath(vault, entry), QUARANTINED_FILE_MODE);
  const done = store.update(id, { state: 'quarantined' })!;
  await vault.step('quarantine:done', id);
  return ok(publicEntry(done));
}

/** Moves the source to its stored name: one rename, or (other device) verified copy + rename + unlink. */
async function moveIn(vault: QuarantineVault, entry: StoredEntry, source: string, identity: FileIdentity): Promise<void> {
  const stored = storedPath(vault, entry);
  try {
    await rename(fsPath(source), stored);
  } catch (error) {
    if (errorCode(error) !== 'EXDEV') throw error;
    await copyIn(vault, entry, source, stored);
    return;
  }
  await syncDirectory(vault.filesDir);
  await syncParent(source);
  // Replaced between hashing and moving? Then record what was really moved (rare; never lose it).
  const moved = await lstatOrNull(stored);
  if (moved && !sameIdentity(moved, identity)) {
    const actual = await hashFile(stored).catch(() => null);
    if (actual) vault.store.update(entry.id, { sha256: actual.sha256, size: actual.identity.size, mode: actual.identity.mode & 0o7777 });
  }
}

async function copyIn(vault: QuarantineVault, entry: StoredEntry, source: string, stored: string): Promise<void> {
  const partial = stored + PARTIAL;
  await copyVerified(source, partial, entry.sha256, { mode: 0o600 });
  await vault.step('quarantine:copied', entry.id);
  await rename(partial, stored);
  await syncDirectory(vault.filesDir);
  await vault.step('quarantine:stored', entry.id);
  try {
    await unlinkForce(source);
  } catch (error) {
    // The source cannot be removed (e.g. a read-only folder): no second copy stays behind.
    await unlinkForce(stored).catch(() => {});
    throw error;
  }
  await syncParent(source);
}

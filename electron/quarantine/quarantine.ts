// The quarantine: moves an unsafe file into `<dataDir>/quarantine/files/`
// (folder 0700, file 0400, a UUID name), and restores, allows or deletes it on
// the user's request. Nothing here deletes a file on its own.
//
// Every operation is a small journalled state machine in quarantine.sqlite:
// the intent (state `quarantining`, `restoring`, `deleting`) is committed
// before a file is touched, the final state after. recover() at start ends
// each unfinished intent by looking at the file system, so a crash at any
// step leaves exactly one copy of the file, in quarantine or where it belongs.
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, realpath, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ACTIVE_QUARANTINE_STATES,
  type AllowedContent,
  type BulkOutcome,
  type QuarantineEntry,
  type QuarantineErrorCode,
} from '../../shared/quarantine/entry.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import {
  copyVerified,
  errorCode,
  exists,
  HashMismatchError,
  hashFile,
  lstatOrNull,
  placeWithoutReplacing,
  sameIdentity,
  syncDirectory,
  syncParent,
  tryLink,
  unlinkForce,
  type FileIdentity,
} from './file-moves.ts';
import { openQuarantineStore, type PendingAction, type QuarantineStore, type StoredEntry } from './quarantine-store.ts';

export const QUARANTINE_DIR_NAME = 'quarantine';
export const QUARANTINE_FILES_DIR_NAME = 'files';
export const QUARANTINE_DB_NAME = 'quarantine.sqlite';
/** Only the user can read a quarantined file; nobody can write or execute it. */
export const QUARANTINED_FILE_MODE = 0o400;
export const QUARANTINE_DIR_MODE = 0o700;

/** Named points inside the operations, in order; tests stop the process at each (see onStep). */
export const QUARANTINE_STEPS = [
  'quarantine:intent', // intent committed, file untouched
  'quarantine:copied', // other device: verified copy written beside the target name (.partial)
  'quarantine:stored', // other device: copy renamed into place, source still there
  'quarantine:moved', // the source path is gone, the file is in quarantine (mode not yet 0400)
  'quarantine:done',
  'restore:intent',
  'restore:copied', // other device: verified copy in the target folder under a temporary name
  'restore:placed', // the file exists at the target, the quarantined copy too
  'restore:stored-removed', // the quarantined copy is gone (mode not yet restored)
  'restore:done',
  'delete:intent',
  'delete:removed',
] as const;
export type QuarantineStep = (typeof QUARANTINE_STEPS)[number];

export interface QuarantineOptions {
  now?: () => Date;
  /** Called at each named step (awaited). For tests: kill the process here to check recovery. */
  onStep?: (step: QuarantineStep, entryId: string) => void | Promise<void>;
}

export interface QuarantineRequest {
  path: string;
  /** The content the verdict was for: a file that changed since is not moved (`hash_mismatch`). */
  sha256: string;
  recordId?: string | null;
}

export interface RestoreOptions {
  /** Another location (a file path) when the original one is taken. */
  to?: string;
}

export interface RecoveryReport {
  /** Intents carried to their end. */
  completed: string[];
  /** Quarantines undone (the file is still at its original path, or was gone): the caller may try again. */
  rolledBack: Array<{ id: string; recordId: string | null; path: string | null; reason: string }>;
  /** Entries whose file vanished from the quarantine folder through something other than Verdict. */
  lost: string[];
  /** Files found in the quarantine folder without an entry (e.g. after the index was set aside): now listed. */
  adopted: string[];
  /** Leftover partial copies that belong to no entry; kept, never deleted. */
  strays: string[];
  problems: Array<{ id: string; message: string }>;
}

export interface Quarantine {
  /** `<dataDir>/quarantine`. */
  readonly dir: string;
  readonly warning: string | null;
  quarantine(file: QuarantineRequest): Promise<Result<QuarantineEntry>>;
  restore(entryId: string, options?: RestoreOptions): Promise<Result<QuarantineEntry>>;
  deletePermanently(entryId: string): Promise<Result<QuarantineEntry>>;
  /** Restores the file and remembers its sha256: identical content is not flagged again. */
  allow(entryId: string, options?: RestoreOptions): Promise<Result<QuarantineEntry>>;
  /** Remembers content as allowed without a quarantine entry (an unsafe file the user keeps, "notify" mode). */
  allowContent(content: { sha256: string; fileName: string; recordId?: string | null }): Result<AllowedContent>;
  isAllowed(sha256: string): boolean;
  /**
   * Whether the user restored this content to this path: a watched folder that
   * quarantines must not take it again the moment it reappears (it notifies instead).
   */
  wasRestoredTo(sha256: string, path: string): boolean;
  allowedContent(): AllowedContent[];
  /** Forgets an allowed sha256; true when it was allowed. */
  revokeAllowed(sha256: string): boolean;
  /** Entries still in quarantine (default), or every entry ever, newest first. */
  list(options?: { include?: 'active' | 'all' }): QuarantineEntry[];
  get(entryId: string): QuarantineEntry | null;
  /** The newest entry for a scan record, if any. */
  byRecord(recordId: string): QuarantineEntry | null;
  /** Ends every unfinished operation; call once at start, before anything else. */
  recover(): Promise<RecoveryReport>;
  quarantineMany(files: readonly QuarantineRequest[]): Promise<Array<BulkOutcome<QuarantineEntry>>>;
  /** With `toFolder`, each file goes into that folder under its own name. */
  restoreMany(entryIds: readonly string[], options?: { toFolder?: string }): Promise<Array<BulkOutcome<QuarantineEntry>>>;
  allowMany(entryIds: readonly string[], options?: { toFolder?: string }): Promise<Array<BulkOutcome<QuarantineEntry>>>;
  deleteMany(entryIds: readonly string[]): Promise<Array<BulkOutcome<QuarantineEntry>>>;
  close(): void;
}

const SHA256 = /^[0-9a-f]{64}$/;
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PARTIAL = '.partial';

type Failure = { ok: false; error: { code: QuarantineErrorCode; message: string } };
const fail = (code: Failure['error']['code'], message: string): Failure => err(code, message) as Failure;

/** Permission bits a restored file gets: as recorded, without setuid/setgid/sticky. */
export const restoredMode = (recorded: number): number => recorded & 0o777;

/** Opens (creating if needed) the quarantine in `dataDir`. Call recover() before using it. */
export async function openQuarantine(dataDir: string, options: QuarantineOptions = {}): Promise<Quarantine> {
  const dir = path.resolve(dataDir, QUARANTINE_DIR_NAME);
  const filesDir = path.join(dir, QUARANTINE_FILES_DIR_NAME);
  for (const folder of [dir, filesDir]) {
    await mkdir(folder, { recursive: true, mode: QUARANTINE_DIR_MODE });
    // mkdir's mode is filtered by the umask, and an existing folder keeps whatever it had.
    await chmod(folder, QUARANTINE_DIR_MODE);
  }
  const store: QuarantineStore = openQuarantineStore(path.join(dir, QUARANTINE_DB_NAME));
  const now = () => (options.now ? options.now() : new Date()).toISOString();
  const step = async (name: QuarantineStep, id: string) => {
    await options.onStep?.(name, id);
  };
  const storedPath = (entry: Pick<StoredEntry, 'storedName'>) => path.join(filesDir, entry.storedName);
  /** Where a cross-device restore writes its copy first: in the target folder, under a name recovery can find. */
  const restorePartial = (target: string, id: string) => path.join(path.dirname(target), `.verdict-restore-${id}${PARTIAL}`);
  const insideQuarantine = (candidate: string) => candidate === dir || candidate.startsWith(dir + path.sep);

  /** One operation at a time per entry and per source path (the UI may send the same action twice). */
  const busy = new Set<string>();
  const exclusive = async <T>(keys: string[], fn: () => Promise<Result<T>>): Promise<Result<T>> => {
    if (keys.some((key) => busy.has(key))) return fail('busy', 'Another action on this file is still running.');
    for (const key of keys) busy.add(key);
    try {
      return await fn();
    } finally {
      for (const key of keys) busy.delete(key);
    }
  };

  const publicEntry = (entry: StoredEntry): QuarantineEntry => ({
    id: entry.id,
    originalPath: entry.originalPath,
    fileName: entry.fileName,
    size: entry.size,
    mode: entry.mode,
    sha256: entry.sha256,
    recordId: entry.recordId,
    state: entry.state,
    quarantinedAt: entry.quarantinedAt,
    resolvedAt: entry.resolvedAt,
    restoredTo: entry.restoredTo,
  });

  // ---- quarantine ---------------------------------------------------------------------

  async function quarantine(file: QuarantineRequest): Promise<Result<QuarantineEntry>> {
    const sha256 = typeof file?.sha256 === 'string' ? file.sha256.toLowerCase() : '';
    if (typeof file?.path !== 'string' || file.path === '' || !SHA256.test(sha256)) {
      return fail('invalid_request', 'A file path and the sha256 of the content that was scanned are needed.');
    }
    const recordId = file.recordId ?? null;
    if (recordId !== null) {
      // Asked again for the same scan (e.g. after a restart): the earlier quarantine stands.
      const earlier = store.byRecord(recordId).find((entry) => entry.state === 'quarantined');
      if (earlier) return ok(publicEntry(earlier));
    }
    let source: string;
    try {
      // A link is not the threat, its target is: that file is moved (and restored to its own path).
      source = await realpath(path.resolve(file.path));
    } catch (error) {
      return fileError(error, path.resolve(file.path));
    }
    if (insideQuarantine(source)) return fail('invalid_request', 'This file is in the quarantine already.');

    return exclusive([`path:${source}`, ...(recordId ? [`record:${recordId}`] : [])], async () => {
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
        quarantinedAt: now(),
        resolvedAt: null,
        restoredTo: null,
      };
      store.insert(entry);
      await step('quarantine:intent', id);
      try {
        await moveIn(entry, source, hashed.identity);
      } catch (error) {
        // moveIn leaves the source where it was on failure: the intent is void.
        store.remove(id);
        return fileError(error, source);
      }
      await step('quarantine:moved', id);
      await chmod(storedPath(entry), QUARANTINED_FILE_MODE);
      const done = store.update(id, { state: 'quarantined' })!;
      await step('quarantine:done', id);
      return ok(publicEntry(done));
    });
  }

  /** Moves the source to its stored name: one rename, or (other device) verified copy + rename + unlink. */
  async function moveIn(entry: StoredEntry, source: string, identity: FileIdentity): Promise<void> {
    const stored = storedPath(entry);
    try {
      await rename(source, stored);
    } catch (error) {
      if (errorCode(error) !== 'EXDEV') throw error;
      await copyIn(entry, source, stored);
      return;
    }
    await syncDirectory(filesDir);
    await syncParent(source);
    // Replaced between hashing and moving? Then record what was really moved (rare; never lose it).
    const moved = await lstatOrNull(stored);
    if (moved && !sameIdentity(moved, identity)) {
      const actual = await hashFile(stored).catch(() => null);
      if (actual) store.update(entry.id, { sha256: actual.sha256, size: actual.identity.size, mode: actual.identity.mode & 0o7777 });
    }
  }

  async function copyIn(entry: StoredEntry, source: string, stored: string): Promise<void> {
    const partial = stored + PARTIAL;
    await copyVerified(source, partial, entry.sha256, { mode: 0o600 });
    await step('quarantine:copied', entry.id);
    await rename(partial, stored);
    await syncDirectory(filesDir);
    await step('quarantine:stored', entry.id);
    try {
      await unlinkForce(source);
    } catch (error) {
      // The source cannot be removed (e.g. a read-only folder): no second copy stays behind.
      await unlinkForce(stored).catch(() => {});
      throw error;
    }
    await syncParent(source);
  }

  // ---- restore and allow ----------------------------------------------------------------

  async function restoreEntry(entryId: string, options: RestoreOptions, action: PendingAction): Promise<Result<QuarantineEntry>> {
    if (typeof entryId !== 'string') return fail('not_found', 'There is no quarantined file with this id.');
    return exclusive([`entry:${entryId}`], async () => {
      const entry = store.get(entryId);
      if (!entry) return fail('not_found', 'There is no quarantined file with this id.');
      if (entry.state !== 'quarantined') return fail('invalid_state', `This file is not in quarantine (it is ${entry.state}).`);
      if (options.to !== undefined && (typeof options.to !== 'string' || options.to === '')) {
        return fail('invalid_request', 'The location to restore to must be a file path.');
      }
      const target = options.to !== undefined ? path.resolve(options.to) : entry.originalPath;
      if (target === null) return fail('original_path_unknown', 'Where this file came from is not known; choose a location to restore it to.');
      if (insideQuarantine(target)) return fail('invalid_target', 'A file cannot be restored into the quarantine folder.');
      const folder = await stat(path.dirname(target)).catch(() => null);
      if (!folder?.isDirectory()) return fail('target_folder_missing', `The folder ${path.dirname(target)} does not exist; choose another location.`);
      if (await exists(target)) return fail('restore_conflict', `Something exists at ${target} already; choose another location.`);

      const stored = storedPath(entry);
      let current: string;
      try {
        current = (await hashFile(stored)).sha256;
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') return fileError(error, stored);
        store.update(entry.id, { state: 'lost', resolvedAt: now() });
        return fail('file_lost', 'The quarantined file is missing from the quarantine folder; it cannot be restored.');
      }
      if (current !== entry.sha256) {
        return fail('hash_mismatch', 'The quarantined file no longer has the content that was quarantined; it was not restored.');
      }

      store.update(entry.id, { state: 'restoring', action, targetPath: target });
      await step('restore:intent', entry.id);
      try {
        await placeAt(entry, stored, target);
      } catch (error) {
        store.update(entry.id, { state: 'quarantined', action: null, targetPath: null });
        if (errorCode(error) === 'EEXIST') return fail('restore_conflict', `Something appeared at ${target}; choose another location.`);
        if (errorCode(error) === 'ENOENT') return fail('target_folder_missing', `The folder ${path.dirname(target)} is gone; choose another location.`);
        return fileError(error, target);
      }
      await step('restore:placed', entry.id);
      await unlinkForce(stored);
      await syncDirectory(filesDir);
      await step('restore:stored-removed', entry.id);
      const done = await finishRestore(entry, target, true, action);
      await step('restore:done', entry.id);
      return ok(publicEntry(done));
    });
  }

  /** Puts the file at `target` (never replacing anything); the quarantined copy stays until the caller removes it. */
  async function placeAt(entry: StoredEntry, stored: string, target: string): Promise<void> {
    if (await tryLink(stored, target)) {
      await syncParent(target);
      return;
    }
    // Another device (or no hard links there): a verified copy in the target folder, then put in place.
    const partial = restorePartial(target, entry.id);
    await copyVerified(stored, partial, entry.sha256, { mode: 0o600 });
    await step('restore:copied', entry.id);
    try {
      await placeWithoutReplacing(partial, target);
    } catch (error) {
      await unlinkForce(partial).catch(() => {});
      throw error;
    }
    await syncParent(target);
  }

  /** The file is at `target` and no longer in quarantine: its mode back, the entry closed (and its content allowed). */
  async function finishRestore(entry: StoredEntry, target: string, setMode: boolean, action: PendingAction): Promise<StoredEntry> {
    if (setMode) await chmod(target, restoredMode(entry.mode)).catch(() => {});
    const allowed = action === 'allow';
    return store.transaction(() => {
      const at = now();
      if (allowed) store.allow({ sha256: entry.sha256, fileName: entry.fileName, allowedAt: at, entryId: entry.id, recordId: entry.recordId });
      return store.update(entry.id, { state: allowed ? 'allowed' : 'restored', action: null, targetPath: null, resolvedAt: at, restoredTo: target })!;
    });
  }

  // ---- delete -----------------------------------------------------------------------------

  async function deletePermanently(entryId: string): Promise<Result<QuarantineEntry>> {
    if (typeof entryId !== 'string') return fail('not_found', 'There is no quarantined file with this id.');
    return exclusive([`entry:${entryId}`], async () => {
      const entry = store.get(entryId);
      if (!entry) return fail('not_found', 'There is no quarantined file with this id.');
      if (entry.state !== 'quarantined' && entry.state !== 'lost') {
        return fail('invalid_state', `This file is not in quarantine (it is ${entry.state}).`);
      }
      store.update(entry.id, { state: 'deleting' });
      await step('delete:intent', entry.id);
      try {
        await unlinkForce(storedPath(entry));
        await syncDirectory(filesDir);
      } catch (error) {
        store.update(entry.id, { state: entry.state });
        return fileError(error, storedPath(entry));
      }
      await step('delete:removed', entry.id);
      return ok(publicEntry(store.update(entry.id, { state: 'deleted', resolvedAt: now() })!));
    });
  }

  // ---- recovery -------------------------------------------------------------------------------

  async function recover(): Promise<RecoveryReport> {
    const report: RecoveryReport = { completed: [], rolledBack: [], lost: [], adopted: [], strays: [], problems: [] };
    for (const entry of store.list(['quarantining', 'restoring', 'deleting'])) {
      if (busy.has(`entry:${entry.id}`)) continue;
      try {
        if (entry.state === 'quarantining') await recoverQuarantine(entry, report);
        else if (entry.state === 'restoring') await recoverRestore(entry, report);
        else {
          await unlinkForce(storedPath(entry));
          store.update(entry.id, { state: 'deleted', resolvedAt: now() });
          report.completed.push(entry.id);
        }
      } catch (error) {
        report.problems.push({ id: entry.id, message: (error as Error).message });
      }
    }
    for (const entry of store.list(['quarantined'])) {
      if (!(await exists(storedPath(entry)))) {
        store.update(entry.id, { state: 'lost', resolvedAt: now() });
        report.lost.push(entry.id);
      }
    }
    await adoptOrphans(report);
    return report;
  }

  async function recoverQuarantine(entry: StoredEntry, report: RecoveryReport): Promise<void> {
    const stored = storedPath(entry);
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

  async function recoverRestore(entry: StoredEntry, report: RecoveryReport): Promise<void> {
    const stored = storedPath(entry);
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
      await syncDirectory(filesDir);
      await finishRestore(entry, target, setMode, entry.action ?? 'restore');
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
    store.update(entry.id, { state: 'lost', action: null, resolvedAt: now() });
    report.lost.push(entry.id);
  }

  async function adoptOrphans(report: RecoveryReport): Promise<void> {
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
          quarantinedAt: now(),
          resolvedAt: null,
          restoredTo: null,
        });
        report.adopted.push(name);
      } catch (error) {
        report.problems.push({ id: name, message: (error as Error).message });
      }
    }
  }

  // ---- bulk -------------------------------------------------------------------------------------

  /** One after another (each moves a whole file); every id gets its own outcome. */
  async function bulk<I>(items: readonly I[], idOf: (item: I) => string, run: (item: I) => Promise<Result<QuarantineEntry>>) {
    const outcomes: Array<BulkOutcome<QuarantineEntry>> = [];
    for (const item of items) {
      let result: Result<QuarantineEntry>;
      try {
        result = await run(item);
      } catch (error) {
        result = fail('io_error', (error as Error).message);
      }
      outcomes.push(result.ok ? { id: idOf(item), ok: true, value: result.value } : { id: idOf(item), ok: false, error: result.error });
    }
    return outcomes;
  }
  const intoFolder = (entryId: string, toFolder: string | undefined): RestoreOptions => {
    if (toFolder === undefined) return {};
    const entry = store.get(entryId);
    return entry ? { to: path.join(path.resolve(toFolder), entry.fileName) } : {};
  };

  return {
    dir,
    warning: store.warning,
    quarantine: (file) => guarded(() => quarantine(file)),
    restore: (entryId, restoreOptions = {}) => guarded(() => restoreEntry(entryId, restoreOptions, 'restore')),
    allow: (entryId, restoreOptions = {}) => guarded(() => restoreEntry(entryId, restoreOptions, 'allow')),
    deletePermanently: (entryId) => guarded(() => deletePermanently(entryId)),
    allowContent(content) {
      const sha256 = typeof content?.sha256 === 'string' ? content.sha256.toLowerCase() : '';
      if (!SHA256.test(sha256)) return fail('invalid_request', 'A sha256 (64 hex digits) is needed.');
      const allowed: AllowedContent = { sha256, fileName: String(content.fileName ?? ''), allowedAt: now(), entryId: null, recordId: content.recordId ?? null };
      store.allow(allowed);
      return ok(allowed);
    },
    isAllowed: (sha256) => typeof sha256 === 'string' && store.isAllowed(sha256),
    wasRestoredTo: (sha256, target) => typeof sha256 === 'string' && typeof target === 'string' && store.wasRestoredTo(sha256, path.resolve(target)),
    allowedContent: () => store.allowed(),
    revokeAllowed: (sha256) => typeof sha256 === 'string' && store.revokeAllowed(sha256),
    list: (listOptions = {}) => store.list(listOptions.include === 'all' ? null : ACTIVE_QUARANTINE_STATES).map(publicEntry),
    get: (entryId) => {
      const entry = store.get(entryId);
      return entry ? publicEntry(entry) : null;
    },
    byRecord: (recordId) => {
      const [newest] = store.byRecord(recordId);
      return newest ? publicEntry(newest) : null;
    },
    recover,
    quarantineMany: (files) => bulk(files, (file) => file.recordId ?? file.path, (file) => guarded(() => quarantine(file))),
    restoreMany: (ids, bulkOptions = {}) => bulk(ids, (id) => id, (id) => guarded(() => restoreEntry(id, intoFolder(id, bulkOptions.toFolder), 'restore'))),
    allowMany: (ids, bulkOptions = {}) => bulk(ids, (id) => id, (id) => guarded(() => restoreEntry(id, intoFolder(id, bulkOptions.toFolder), 'allow'))),
    deleteMany: (ids) => bulk(ids, (id) => id, (id) => guarded(() => deletePermanently(id))),
    close: () => store.close(),
  };
}

/** An unexpected exception becomes an io_error Result (the journal stays as it was: recover() ends it). */
async function guarded<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn();
  } catch (error) {
    return fileError(error, null);
  }
}

function fileError(error: unknown, file: string | null): Failure {
  const where = file ?? 'the file';
  if (error instanceof HashMismatchError) return fail('hash_mismatch', `${where} changed while it was being moved, so it was left where it was; scan it again.`);
  switch (errorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return fail('source_missing', `There is no file at ${where} any more.`);
    case 'ENOTREG':
    case 'ELOOP':
    case 'EISDIR':
      return fail('not_regular_file', `${where} is not a regular file; only files can be quarantined.`);
    case 'EACCES':
    case 'EPERM':
      return fail('io_error', `${where} could not be moved: permission denied.`);
    case 'EBUSY':
      return fail('io_error', `${where} is in use by another program; close it and try again.`);
    default:
      return fail('io_error', `${where}: ${(error as Error).message}`);
  }
}

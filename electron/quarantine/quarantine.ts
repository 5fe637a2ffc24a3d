// The quarantine: moves an unsafe file into `<dataDir>/quarantine/files/`
// (folder 0700, file 0400, a UUID name), and restores, allows or deletes it on
// the user's request. Nothing here deletes a file on its own.
//
// Every operation is a small journalled state machine in quarantine.sqlite:
// the intent (state `quarantining`, `restoring`, `deleting`) is committed
// before a file is touched, the final state after. recover() at start ends
// each unfinished intent by looking at the file system, so a crash at any
// step leaves exactly one copy of the file, in quarantine or where it belongs.
//
// This file is the coordinator: the state is QuarantineVault (quarantine-vault.ts), and
// each operation is its own module (quarantine-file, restore-entry, delete-entry,
// crash-recovery, allow-list, entry-listing, bulk-actions).
import type { AllowedContent, BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { Result } from '../../shared/result.ts';
import { allowContent, isAllowed, revokeAllowed } from './allow-list.ts';
import { bulk, intoFolder } from './bulk-actions.ts';
import { recover } from './crash-recovery.ts';
import { deleteEntry } from './delete-entry.ts';
import { getEntry, listEntries, newestForRecord, wasRestoredTo } from './entry-listing.ts';
import { guarded } from './quarantine-errors.ts';
import { quarantineFile } from './quarantine-file.ts';
import { openVault, storedPath, type QuarantineStep } from './quarantine-vault.ts';
import { restoreEntry } from './restore-entry.ts';

export {
  QUARANTINE_DB_NAME,
  QUARANTINE_DIR_MODE,
  QUARANTINE_DIR_NAME,
  QUARANTINE_FILES_DIR_NAME,
  QUARANTINE_STEPS,
  QUARANTINED_FILE_MODE,
  restoredMode,
  type QuarantineStep,
} from './quarantine-vault.ts';

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
  /** Where an entry's file lies in the quarantine folder while it is quarantined (read-only: the recheck judges it again), else null. */
  storedFile(entryId: string): string | null;
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

/** Opens (creating if needed) the quarantine in `dataDir`. Call recover() before using it. */
export async function openQuarantine(dataDir: string, options: QuarantineOptions = {}): Promise<Quarantine> {
  const vault = await openVault(dataDir, options);
  const { store } = vault;
  return {
    dir: vault.dir,
    warning: store.warning,
    quarantine: (file) => guarded(() => quarantineFile(vault, file)),
    restore: (entryId, restoreOptions = {}) => guarded(() => restoreEntry(vault, entryId, restoreOptions, 'restore')),
    allow: (entryId, restoreOptions = {}) => guarded(() => restoreEntry(vault, entryId, restoreOptions, 'allow')),
    deletePermanently: (entryId) => guarded(() => deleteEntry(vault, entryId)),
    allowContent: (content) => allowContent(vault, content),
    isAllowed: (sha256) => isAllowed(vault, sha256),
    wasRestoredTo: (sha256, target) => wasRestoredTo(vault, sha256, target),
    allowedContent: () => store.allowed(),
    revokeAllowed: (sha256) => revokeAllowed(vault, sha256),
    list: (listOptions = {}) => listEntries(vault, listOptions),
    get: (entryId) => getEntry(vault, entryId),
    storedFile: (entryId) => {
      const stored = vault.store.get(entryId);
      return stored?.state === 'quarantined' ? storedPath(vault, stored) : null;
    },
    byRecord: (recordId) => newestForRecord(vault, recordId),
    recover: () => recover(vault),
    quarantineMany: (files) => bulk(files, (file) => file.recordId ?? file.path, (file) => guarded(() => quarantineFile(vault, file))),
    restoreMany: (ids, bulkOptions = {}) => bulk(ids, (id) => id, (id) => guarded(() => restoreEntry(vault, id, intoFolder(vault, id, bulkOptions.toFolder), 'restore'))),
    allowMany: (ids, bulkOptions = {}) => bulk(ids, (id) => id, (id) => guarded(() => restoreEntry(vault, id, intoFolder(vault, id, bulkOptions.toFolder), 'allow'))),
    deleteMany: (ids) => bulk(ids, (id) => id, (id) => guarded(() => deleteEntry(vault, id))),
    close: () => store.close(),
  };
}

// The open quarantine's state, named once (QuarantineVault): its folders, its journal,
// the clock, the test hook and the entries and paths busy now. Also its layout on disk
// and what every operation shares: one operation per file at a time, where a file is stored.
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { Result } from '../../shared/result.ts';
import type { QuarantineOptions } from './quarantine.ts';
import { fail } from './quarantine-errors.ts';
import { openQuarantineStore, type QuarantineStore, type StoredEntry } from './quarantine-store.ts';

export const QUARANTINE_DIR_NAME = 'quarantine';
export const QUARANTINE_FILES_DIR_NAME = 'files';
export const QUARANTINE_DB_NAME = 'quarantine.sqlite';
/** Only the user can read a quarantined file; nobody can write or execute it. */
export const QUARANTINED_FILE_MODE = 0o400;
export const QUARANTINE_DIR_MODE = 0o700;
/** The suffix of a copy not yet verified and put in place (in the quarantine, or beside a restore target). */
export const PARTIAL = '.partial';

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

export interface QuarantineVault {
  /** `<dataDir>/quarantine`. */
  dir: string;
  /** `<dataDir>/quarantine/files`: the quarantined files, each under a UUID name. */
  filesDir: string;
  /** The journal and allow-list (quarantine.sqlite). */
  store: QuarantineStore;
  /** The time now, as an ISO string. */
  now(): string;
  /** Awaits the test hook at a named step. */
  step(name: QuarantineStep, id: string): Promise<void>;
  /** Keys (`entry:<id>`, `path:<source>`, `record:<id>`) of the operations running now. */
  busy: Set<string>;
}

/** Creates the folders (0700, also when they were there) and opens the journal. */
export async function openVault(dataDir: string, options: QuarantineOptions): Promise<QuarantineVault> {
  const dir = path.resolve(dataDir, QUARANTINE_DIR_NAME);
  const filesDir = path.join(dir, QUARANTINE_FILES_DIR_NAME);
  for (const folder of [dir, filesDir]) {
    await mkdir(folder, { recursive: true, mode: QUARANTINE_DIR_MODE });
    // mkdir's mode is filtered by the umask, and an existing folder keeps whatever it had.
    await chmod(folder, QUARANTINE_DIR_MODE);
  }
  return {
    dir,
    filesDir,
    store: openQuarantineStore(path.join(dir, QUARANTINE_DB_NAME)),
    now: () => (options.now ? options.now() : new Date()).toISOString(),
    step: async (name, id) => {
      await options.onStep?.(name, id);
    },
    busy: new Set(),
  };
}

/** Permission bits a restored file gets: as recorded, without setuid/setgid/sticky. */
export const restoredMode = (recorded: number): number => recorded & 0o777;

export const storedPath = (vault: QuarantineVault, entry: Pick<StoredEntry, 'storedName'>): string => path.join(vault.filesDir, entry.storedName);

/** Where a cross-device restore writes its copy first: in the target folder, under a name recovery can find. */
export const restorePartial = (target: string, id: string): string => path.join(path.dirname(target), `.verdict-restore-${id}${PARTIAL}`);

export const insideQuarantine = (vault: QuarantineVault, candidate: string): boolean => candidate === vault.dir || candidate.startsWith(vault.dir + path.sep);

/** One operation at a time per entry and per source path (the UI may send the same action twice). */
export async function exclusive<T>(vault: QuarantineVault, keys: string[], fn: () => Promise<Result<T>>): Promise<Result<T>> {
  if (keys.some((key) => vault.busy.has(key))) return fail('busy', 'Another action on this file is still running.');
  for (const key of keys) vault.busy.add(key);
  try {
    return await fn();
  } finally {
    for (const key of keys) vault.busy.delete(key);
  }
}

/** Runs `fn` on the entry with this id, alone (see exclusive); `not_found` when there is none. */
export async function withEntry<T>(vault: QuarantineVault, entryId: string, fn: (entry: StoredEntry) => Promise<Result<T>>): Promise<Result<T>> {
  if (typeof entryId !== 'string') return notFound();
  return exclusive(vault, [`entry:${entryId}`], async () => {
    const entry = vault.store.get(entryId);
    return entry ? fn(entry) : notFound();
  });
}

const notFound = () => fail('not_found', 'There is no quarantined file with this id.');

/** An entry without the journal fields (what the UI and the CLIs see). */
export const publicEntry = (entry: StoredEntry): QuarantineEntry => ({
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

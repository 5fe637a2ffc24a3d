// createSavedScans(): custom scans kept under a name (issue 29 §3). Saving replaces
// a scan of the same name (names compare without case); running one starts a custom
// job with its folders, its left-out folders and its options; export writes the file
// the import reads back, and an import is checked whole first, each problem named.
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from '../../shared/result.ts';
import { checkImport, MAX_SAVED_SCANS, sameName, savedScanSchema, type SavedScan, type SavedScanInput } from '../../shared/saved-scans/saved-scan.ts';
import type { ScanOrigin } from '../../shared/scans/record.ts';
import type { JobRequest, JobState } from '../jobs/jobs.ts';
import { readSavedScansFile, writeSavedScansFile } from './saved-scans-file.ts';
import type { SavedScansState } from './saved-scans-state.ts';

export const SAVED_SCANS_FILE = 'saved-scans.json';

export interface SavedScans {
  list(): SavedScan[];
  get(name: string): SavedScan | null;
  /** Saves (or replaces, by name) a scan. `invalid_saved_scan` names what is wrong. */
  save(input: SavedScanInput): Promise<Result<SavedScan[]>>;
  /** `not_found` when no scan has that name. */
  remove(name: string): Promise<Result<SavedScan[]>>;
  /** Starts the saved scan as a custom job. `not_found` when no scan has that name. */
  run(name: string, request?: Pick<JobRequest, 'origin' | 'settled'>): Promise<Result<JobState>>;
  /** The request a run of this scan makes (the CLI continues the same job with it). */
  requestFor(scan: SavedScan, origin: ScanOrigin): JobRequest;
  exportTo(path: string): Promise<Result<{ count: number }>>;
  /** Checks the file whole, then adds its scans, replacing those of the same name. */
  importFrom(path: string): Promise<Result<{ added: number; replaced: number }>>;
  /** Set when start-up found the file damaged: where it was set aside. */
  readonly setAside: string | null;
  /** Told the whole list after each change (the tray's menu). */
  onChange(listener: (scans: SavedScan[]) => void): () => void;
}

export interface SavedScansInput {
  dataDir: string;
  startJob(request: JobRequest): Promise<JobState>;
}

export async function openSavedScans(input: SavedScansInput): Promise<SavedScans> {
  const file = join(input.dataDir, SAVED_SCANS_FILE);
  const read = await readSavedScansFile(file);
  const state: SavedScansState = { file, scans: read.scans, writing: Promise.resolve() };
  const listeners = new Set<(scans: SavedScan[]) => void>();

  /** Applies a change to the list and writes the file; the list changes only once it is on disk. */
  const commit = async (next: SavedScan[]): Promise<Result<SavedScan[]>> => {
    const write = state.writing.then(() => writeSavedScansFile(file, next));
    state.writing = write.catch(() => undefined);
    await write;
    state.scans = next;
    for (const listener of [...listeners]) listener([...next]);
    return ok([...next]);
  };
  const find = (name: string) => state.scans.find((scan) => sameName(scan.name, name)) ?? null;
  const requestFor = (scan: SavedScan, origin: ScanOrigin): JobRequest => ({
    kind: 'custom',
    roots: scan.folders,
    excluded: scan.excluded,
    savedScan: scan.name,
    origin,
    mode: scan.mode,
    ...(scan.force ? { force: true } : {}),
    ...(scan.basicOnly ? { basicOnly: true } : {}),
  });

  return {
    setAside: read.setAside,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    list: () => [...state.scans],
    get: find,
    async save(raw) {
      const parsed = savedScanSchema.safeParse(raw);
      if (!parsed.success) return err('invalid_saved_scan', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'scan'}: ${issue.message}`).join('; '));
      const others = state.scans.filter((scan) => !sameName(scan.name, parsed.data.name));
      if (others.length >= MAX_SAVED_SCANS) return err('too_many_saved_scans', `At most ${MAX_SAVED_SCANS} scans can be saved.`);
      return commit([...others, parsed.data]);
    },
    async remove(name) {
      if (!find(name)) return err('not_found', `No saved scan is named “${name}”.`, { name });
      return commit(state.scans.filter((scan) => !sameName(scan.name, name)));
    },
    async run(name, request = {}) {
      const scan = find(name);
      if (!scan) return err('not_found', `No saved scan is named “${name}”.`, { name });
      return ok(await input.startJob({ ...requestFor(scan, request.origin ?? 'dialog'), ...(request.settled ? { settled: request.settled } : {}) }));
    },
    requestFor,
    async exportTo(path) {
      await writeSavedScansFile(path, state.scans);
      return ok({ count: state.scans.length });
    },
    async importFrom(path) {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        return err('import_unreadable', `${path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, { path });
      }
      const checked = checkImport(text);
      if (!checked.ok) return err('invalid_import', checked.problems.map((p) => `${p.where}: ${p.problem}`).join('\n'), { problems: checked.problems.length });
      const replaced = checked.scans.filter((scan) => find(scan.name)).length;
      const kept = state.scans.filter((scan) => !checked.scans.some((incoming) => sameName(incoming.name, scan.name)));
      if (kept.length + checked.scans.length > MAX_SAVED_SCANS) return err('too_many_saved_scans', `At most ${MAX_SAVED_SCANS} scans can be saved.`);
      await commit([...kept, ...checked.scans]);
      return ok({ added: checked.scans.length - replaced, replaced });
    },
  };
}

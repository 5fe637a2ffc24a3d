// What the window may do with saved scans, and the schema of each IPC channel's arguments.
// Export and import go through the main process's file dialogs: the window never names a path.
import { z } from 'zod';
import type { JobProgress } from '../jobs/job.ts';
import type { Result } from '../result.ts';
import { savedScanNameSchema, savedScanSchema, type SavedScan, type SavedScanInput } from './saved-scan.ts';

export interface SavedScansApi {
  list(): Promise<Result<SavedScan[]>>;
  /** Saves or replaces (by name, without case) a scan; `invalid_saved_scan` says what is wrong. */
  save(scan: SavedScanInput): Promise<Result<SavedScan[]>>;
  remove(name: string): Promise<Result<SavedScan[]>>;
  /** Starts it as a custom job; its progress so far. */
  run(name: string): Promise<Result<JobProgress>>;
  /** Asks where to write (save dialog) and writes every saved scan there; null when cancelled. */
  export(): Promise<Result<{ count: number } | null>>;
  /** Asks for a file (open dialog), checks it whole (`invalid_import` names each problem) and adds its scans; null when cancelled. */
  import(): Promise<Result<{ added: number; replaced: number } | null>>;
}

/** The core's side: export and import take the path the shell's dialog chose. */
export type SavedScansCoreApi = Omit<SavedScansApi, 'export' | 'import'> & {
  exportTo(path: string): Promise<Result<{ count: number }>>;
  importFrom(path: string): Promise<Result<{ added: number; replaced: number }>>;
};

export const SAVED_SCANS_CHANNELS = {
  'savedScans:list': z.tuple([]),
  'savedScans:save': z.tuple([savedScanSchema]),
  'savedScans:remove': z.tuple([savedScanNameSchema]),
  'savedScans:run': z.tuple([savedScanNameSchema]),
  'savedScans:export': z.tuple([]),
  'savedScans:import': z.tuple([]),
} as const;

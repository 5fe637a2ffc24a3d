// The saved-scans capability's one state: the scans as last read or written, and
// the write in progress (writes go one after another, each the whole file).
import type { SavedScan } from '../../shared/saved-scans/saved-scan.ts';

export interface SavedScansState {
  readonly file: string;
  scans: SavedScan[];
  /** The last write queued; the next one waits for it. */
  writing: Promise<void>;
}

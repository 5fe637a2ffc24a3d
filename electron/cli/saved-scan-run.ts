// `verdict scan --saved NAME`: the scan saved under NAME in the app (electron/saved-scans/),
// run as its custom job; options given on the command line add to its own.
import { displayName } from '../../shared/display-name.ts';
import type { ModeChoice, ScanRecord } from '../../shared/scans/record.ts';
import type { CoreInternals } from '../core/create-core.ts';
import type { CliIo } from './cli-options.ts';
import { runJobScan } from './scan-job.ts';

export interface SavedRunOptions {
  mode: ModeChoice | undefined;
  force: boolean;
  basicOnly: boolean;
  json: boolean;
  giveUp: (record: ScanRecord) => boolean;
}

export async function runSavedScan(core: CoreInternals, io: CliIo, name: string, options: SavedRunOptions): Promise<number> {
  const scan = core.savedScanStore.get(name);
  if (!scan) {
    const names = core.savedScanStore.list().map((saved) => `“${displayName(saved.name)}”`);
    io.stderr(`No saved scan is named “${displayName(name)}”. ${names.length > 0 ? `Saved scans: ${names.join(', ')}.` : 'No scan is saved yet (the app saves them).'}`);
    return 2;
  }
  return runJobScan(core, io, {
    kind: 'custom',
    roots: scan.folders,
    excluded: scan.excluded,
    savedScan: scan.name,
    mode: options.mode ?? scan.mode,
    force: options.force || scan.force,
    basicOnly: options.basicOnly || scan.basicOnly,
    json: options.json,
    giveUp: options.giveUp,
  });
}

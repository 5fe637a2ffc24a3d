// `saved-scans.json` in the data directory, in the export file's own format: read at
// start (a damaged file is set aside and reported, never half read), written whole and
// atomically after each change.
import { readFile, rename } from 'node:fs/promises';
import { checkImport, savedScansFile, type SavedScan } from '../../shared/saved-scans/saved-scan.ts';
import { writeFileAtomic } from '../settings/atomic-write.ts';

export type SavedScansRead = { scans: SavedScan[]; setAside: string | null };

export async function readSavedScansFile(file: string): Promise<SavedScansRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { scans: [], setAside: null };
    throw error;
  }
  const checked = checkImport(text);
  if (checked.ok) return { scans: checked.scans, setAside: null };
  const aside = `${file}.damaged-${Date.now()}`;
  await rename(file, aside);
  return { scans: [], setAside: aside };
}

export async function writeSavedScansFile(file: string, scans: readonly SavedScan[]): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(savedScansFile(scans), null, 2)}\n`);
}

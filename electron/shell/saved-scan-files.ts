// Saved scans' export and import from the window: the main process asks for the file with
// the native dialogs, then the core writes or reads it. The window never names a path.
import { dialog, type BrowserWindow, type OpenDialogOptions, type SaveDialogOptions } from 'electron';
import type { CoreApi } from '../../shared/bridge/api.ts';
import { ok, type Result } from '../../shared/result.ts';

export interface SavedScanFilePickers {
  /** Where to write the export; null when cancelled. */
  exportTo(): Promise<string | null>;
  /** The file to import; null when cancelled. */
  importFrom(): Promise<string | null>;
}

const FILTERS = [{ name: 'JSON', extensions: ['json'] }];

export function savedScansExportOptions(): SaveDialogOptions {
  return { title: 'Export saved scans', defaultPath: 'verdict-saved-scans.json', filters: FILTERS, properties: ['createDirectory', 'showOverwriteConfirmation'] };
}

export function savedScansImportOptions(): OpenDialogOptions {
  return { title: 'Import saved scans', filters: FILTERS, properties: ['openFile'] };
}

export function createSavedScanFilePickers(parent: () => BrowserWindow | null): SavedScanFilePickers {
  return {
    async exportTo() {
      const window = parent();
      const result = window ? await dialog.showSaveDialog(window, savedScansExportOptions()) : await dialog.showSaveDialog(savedScansExportOptions());
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async importFrom() {
      const window = parent();
      const result = window ? await dialog.showOpenDialog(window, savedScansImportOptions()) : await dialog.showOpenDialog(savedScansImportOptions());
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  };
}

export async function exportSavedScans(core: Pick<CoreApi, 'savedScans'>, pickers: SavedScanFilePickers): Promise<Result<{ count: number } | null>> {
  const path = await pickers.exportTo();
  return path === null ? ok(null) : core.savedScans.exportTo(path);
}

export async function importSavedScans(core: Pick<CoreApi, 'savedScans'>, pickers: SavedScanFilePickers): Promise<Result<{ added: number; replaced: number } | null>> {
  const path = await pickers.importFrom();
  return path === null ? ok(null) : core.savedScans.importFrom(path);
}

// `history:export` from the renderer: the main process asks where to write with the
// native save dialog, then the core writes the file. The renderer names only the
// format and the filter, never a path, so it cannot make Verdict write anywhere else.
import { dialog, type BrowserWindow, type SaveDialogOptions } from 'electron';
import type { CoreApi, ExportFormat, HistoryExportResult } from '../../shared/bridge/api.ts';
import { ok, type Result } from '../../shared/result.ts';
import type { HistoryQuery } from '../../shared/scans/record.ts';

/** Asks the user for the export file; null when cancelled. */
export type ExportLocationPicker = (format: ExportFormat, language: 'en' | 'de') => Promise<string | null>;

// The dialog's own buttons follow the OS language; its title follows Verdict's.
const TITLES = { en: 'Export scans', de: 'Prüfungen exportieren' } as const;
const FILTER_NAMES = { csv: { en: 'CSV (spreadsheet)', de: 'CSV (Tabelle)' }, json: { en: 'JSON', de: 'JSON' } } as const;

/** A dated default name in the format's extension, and a filter for it. */
export function exportDialogOptions(format: ExportFormat, language: 'en' | 'de', now: Date = new Date()): SaveDialogOptions {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return {
    title: TITLES[language],
    defaultPath: `verdict-scans-${day}.${format}`,
    filters: [{ name: FILTER_NAMES[format][language], extensions: [format] }],
    // The export replaces an existing file (atomically): Linux asks first only when told to.
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
}

export function createExportLocationPicker(parent: () => BrowserWindow | null): ExportLocationPicker {
  return async (format, language) => {
    const window = parent();
    const options = exportDialogOptions(format, language);
    const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}

/** The language the UI speaks (the settings' choice, or the OS's), for the dialog title. */
async function uiLanguage(core: Pick<CoreApi, 'settings'>): Promise<'en' | 'de'> {
  const settings = await core.settings.get();
  const chosen = settings.ok ? settings.value.language : 'system';
  if (chosen !== 'system') return chosen;
  const system = await core.settings.systemLanguage();
  return system.ok ? system.value : 'en';
}

/** Shows the dialog, then has the core write the scans matching `query`; null when cancelled. */
export async function exportHistoryToChosenFile(
  core: Pick<CoreApi, 'history' | 'settings'>,
  pick: ExportLocationPicker,
  format: ExportFormat,
  query?: HistoryQuery,
): Promise<Result<HistoryExportResult | null>> {
  const target = await pick(format, await uiLanguage(core));
  if (target === null) return ok(null);
  return core.history.export(target, { format, ...(query ? { query } : {}) });
}

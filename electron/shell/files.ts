// The `files` part of the bridge that only the shell can do: native dialogs,
// revealing a file in the OS file manager, and the clipboard.
import path from 'node:path';
import { clipboard, dialog, shell, type BrowserWindow, type OpenDialogOptions, type SaveDialogOptions } from 'electron';
import type { VerdictApi } from '../../shared/bridge/api.ts';
import { hasEscapedBytes } from '../../shared/file-name-bytes.ts';
import { err, ok } from '../../shared/result.ts';
import { createExportLocationPicker, type ExportLocationPicker } from './history-export.ts';

/**
 * `pathFor` lives in the preload (webUtils); the rest is answered here. `pickExportLocation`
 * is no channel of its own: `history:export` uses it (see history-export.ts).
 */
export type FilesHandlers = Omit<VerdictApi['files'], 'pathFor'> & { pickExportLocation: ExportLocationPicker };

export function dialogOptions(kind: 'files' | 'folder'): OpenDialogOptions {
  return kind === 'files'
    ? { title: 'Add files', properties: ['openFile', 'multiSelections'] }
    : { title: 'Choose a folder', properties: ['openDirectory'] };
}

/** Where to restore a file whose original place is taken: the dialog suggests its own name. */
export function saveDialogOptions(defaultName: string): SaveDialogOptions {
  // Only the name: a path in it would make the dialog open wherever the renderer said. An existing
  // file is never replaced (the core refuses), so the dialog need not ask about overwriting.
  const name = path.basename(defaultName.replaceAll('\\', '/'));
  return { title: 'Restore to…', ...(name ? { defaultPath: name } : {}), properties: ['createDirectory'] };
}

/** The nearest folder above `target` whose path holds no byte that is not UTF-8. */
export function utf8Ancestor(target: string): string {
  let folder = path.dirname(target);
  while (hasEscapedBytes(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  return folder;
}

export function createFileHandlers(parent: () => BrowserWindow | null): FilesHandlers {
  return {
    async pick(kind) {
      const window = parent();
      const result = window ? await dialog.showOpenDialog(window, dialogOptions(kind)) : await dialog.showOpenDialog(dialogOptions(kind));
      return ok(result.canceled ? [] : result.filePaths);
    },
    async pickSaveLocation(defaultName) {
      const window = parent();
      const options = saveDialogOptions(defaultName);
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return ok(result.canceled || !result.filePath ? null : result.filePath);
    },
    async reveal(target) {
      if (!path.isAbsolute(target)) return err('invalid_argument', 'Only an absolute path can be shown in the folder.');
      if (!hasEscapedBytes(target)) {
        shell.showItemInFolder(target);
        return ok(null);
      }
      // Electron takes a path as UTF-8 text: a name that is not UTF-8 cannot be selected. Its
      // nearest folder whose path is UTF-8 (usually the file's own) is opened instead.
      const opened = await shell.openPath(utf8Ancestor(target));
      return opened === '' ? ok(null) : err('reveal_failed', opened);
    },
    async copyText(text) {
      clipboard.writeText(text);
      return ok(null);
    },
    pickExportLocation: createExportLocationPicker(parent),
  };
}

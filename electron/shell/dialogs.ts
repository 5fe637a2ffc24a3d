// Native dialogs the main process shows on its own (the renderer's file pickers
// go through files.ts).
import { dialog } from 'electron';

/** Startup failed before any window exists: say so, without internals. */
export function showStartupError(error: unknown): void {
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? ` (${(error as { code: string }).code})` : '';
  dialog.showErrorBox('Verdict could not start', `Verdict could not start${code}. Details are in the log file in Verdict's log folder.`);
}

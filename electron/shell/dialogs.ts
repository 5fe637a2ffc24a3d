// Native dialogs the main process shows on its own (the renderer's file pickers
// go through files.ts).
import { dialog } from 'electron';
import { DataDiskFullError } from '../core/disk-full.ts';
import { diskFullTexts } from '../core/disk-full-text.ts';
import { systemLanguage } from '../core/system-language.ts';

/** Startup failed before any window exists: say so, without internals (a full data disk: which folder, what to do). */
export function showStartupError(error: unknown): void {
  if (error instanceof DataDiskFullError) {
    showDiskFullStop(error.dataDir, 'start');
    return;
  }
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? ` (${(error as { code: string }).code})` : '';
  dialog.showErrorBox('Verdict could not start', `Verdict could not start${code}. Details are in the log file in Verdict's log folder.`);
}

/** The data folder's disk is full and Verdict could not start, or had to stop. The settings may be unreadable: the OS language. */
export function showDiskFullStop(dataDir: string, when: 'start' | 'run'): void {
  const texts = diskFullTexts(systemLanguage());
  dialog.showErrorBox(when === 'start' ? texts.startTitle : texts.stoppedTitle, texts.restartBody(dataDir));
}

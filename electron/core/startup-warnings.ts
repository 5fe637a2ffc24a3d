// What start-up found that the user should hear about, as a stable code plus the
// stores' own English sentence (see StartupWarning in shared/bridge/api.ts). The
// stores report a sentence only, so the code is read from their state and wording;
// test/electron/core/startup-warnings.test.ts runs every case through the real stores,
// so a reworded sentence fails there rather than losing its code.
import path from 'node:path';
import type { StartupWarning } from '../../shared/bridge/api.ts';

export interface StartupWarningSources {
  settings: { readonly warning: string | null; readonly readOnly: boolean; readonly file: string };
  history: { readonly warning: string | null };
  quarantine: { readonly warning: string | null };
  /** What quarantine recovery could not put right. */
  recovery: { readonly lost: readonly string[]; readonly problems: readonly unknown[] };
}

/** The new name of a file set aside (`… set aside as <name> and …`), if the sentence gives one. */
function asideName(message: string): string | undefined {
  const name = /set aside as (\S+?) and /.exec(message)?.[1];
  return name ? path.basename(name) : undefined;
}

export function settingsWarning(settings: StartupWarningSources['settings']): StartupWarning | null {
  const message = settings.warning;
  if (!message) return null;
  if (/newer version of Verdict/.test(message)) return { code: 'settings_future_version', message };
  // Set aside and replaced by defaults that can be saved: damaged. Kept read-only: it could not be read (or moved).
  if (!settings.readOnly) {
    const file = asideName(message);
    return { code: 'settings_damaged', message, ...(file ? { file } : {}) };
  }
  return { code: 'settings_unreadable', message, file: settings.file };
}

export function collectStartupWarnings(sources: StartupWarningSources): StartupWarning[] {
  const warnings: StartupWarning[] = [];
  const settings = settingsWarning(sources.settings);
  if (settings) warnings.push(settings);
  if (sources.history.warning) {
    const file = asideName(sources.history.warning);
    warnings.push({ code: 'history_replaced', message: sources.history.warning, ...(file ? { file } : {}) });
  }
  if (sources.quarantine.warning) warnings.push({ code: 'quarantine_index_replaced', message: sources.quarantine.warning });
  const lost = sources.recovery.lost.length;
  if (lost > 0) {
    warnings.push({
      code: 'quarantine_files_lost',
      count: lost,
      message: `${lost === 1 ? '1 quarantined file is' : `${lost} quarantined files are`} missing from the quarantine folder (removed outside Verdict); ${lost === 1 ? 'it' : 'they'} can no longer be restored.`,
    });
  }
  const failed = sources.recovery.problems.length;
  if (failed > 0) {
    warnings.push({
      code: 'quarantine_recovery_failed',
      count: failed,
      message: `${failed === 1 ? '1 quarantine action' : `${failed} quarantine actions`} interrupted earlier could not be finished at start-up; details are in the log.`,
    });
  }
  return warnings;
}

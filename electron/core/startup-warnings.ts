// What start-up found that the user should hear about, as a stable code plus the
// stores' own English sentence (see StartupWarning in shared/bridge/api.ts). The
// settings store gives its code; history and the quarantine index have one kind of
// problem each (replaced), and the set-aside name is read from the sentence.
// test/electron/core/core-startup-warnings.test.ts runs every case through the real stores.
import path from 'node:path';
import type { StartupWarning } from '../../shared/bridge/api.ts';
import type { SettingsProblem } from '../settings/settings-store.ts';

export interface StartupWarningSources {
  settings: { readonly warning: string | null; readonly problem: SettingsProblem | null };
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
  if (!settings.warning || !settings.problem) return null;
  return { code: settings.problem.code, message: settings.warning, ...(settings.problem.file ? { file: settings.problem.file } : {}) };
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

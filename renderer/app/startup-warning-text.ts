// A start-up warning in the UI's language: translated by its code (with the file
// name or count it carries), or the core's English sentence for anything unknown.
// The file's path is shown through displayName(), like every path.
import { displayName } from '../../shared/display-name.ts';
import type { StartupWarning } from '../../shared/bridge/api.ts';
import type { Translator } from '../i18n/messages.ts';

export function startupWarningText({ t, tn }: Pick<Translator, 't' | 'tn'>, warning: StartupWarning): string {
  switch (warning.code) {
    case 'settings_damaged':
    case 'settings_unreadable':
    case 'history_replaced':
      // Without the file name the translation would have a hole; the sentence names it.
      return warning.file ? t(`startup.${warning.code}`, { file: displayName(warning.file) }) : displayName(warning.message);
    case 'settings_future_version':
    case 'quarantine_index_replaced':
      return t(`startup.${warning.code}`);
    case 'quarantine_files_lost':
    case 'quarantine_recovery_failed':
      return warning.count !== undefined ? tn(`startup.${warning.code}`, warning.count) : displayName(warning.message);
    default:
      return displayName((warning as { message: string }).message);
  }
}

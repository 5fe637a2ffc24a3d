// The language of a CLI that does not open the core (`status`, `update`): the
// settings' choice in the data directory, else the system's, as `scan` decides it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from '../../shared/service-contract/limits.ts';
import { systemLanguage } from '../core/system-language.ts';
import { readSettingsText, SETTINGS_FILE_NAME } from '../settings/settings-store.ts';

export function dataDirLanguage(dataDir: string, env: NodeJS.ProcessEnv): Language {
  let text: string;
  try {
    text = readFileSync(join(dataDir, SETTINGS_FILE_NAME), 'utf8');
  } catch {
    return systemLanguage(env);
  }
  const read = readSettingsText(text);
  const chosen = read.kind === 'valid' ? read.settings.language : read.kind === 'newer' ? (read.understood?.language ?? 'system') : 'system';
  return chosen === 'system' ? systemLanguage(env) : chosen;
}

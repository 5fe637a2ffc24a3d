// The settings' clamd choice for a CLI that does not open the core (`status`), read as
// `scan` would take it: `--clamd` wins; an unreadable settings file means the usual order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClamdAddress } from '../../shared/engine/clamd-address.ts';
import { resolveClamdChoice, type ResolvedClamdChoice } from '../../shared/engine/clamd-choice.ts';
import { readSettingsText, SETTINGS_FILE_NAME } from '../settings/settings-store.ts';

export function clamdChoiceFor(dataDir: string, named: ClamdAddress | undefined): ResolvedClamdChoice {
  if (named !== undefined) return { kind: 'address', address: named };
  let text: string;
  try {
    text = readFileSync(join(dataDir, SETTINGS_FILE_NAME), 'utf8');
  } catch {
    return { kind: 'auto' };
  }
  const read = readSettingsText(text);
  const settings = read.kind === 'valid' ? read.settings : read.kind === 'newer' ? read.understood : null;
  return settings ? resolveClamdChoice(settings.clamd) : { kind: 'auto' };
}

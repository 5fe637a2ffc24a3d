// The CLIs' answer to a full data disk: one line naming the data folder and what
// to do, in the user's language, and exit code 2. It can surface at several
// places at once (a history write, the service's store, the core's close), so
// it is said once per run.
import { isDiskFull, DataDiskFullError } from '../core/disk-full.ts';
import { diskFullTexts } from '../core/disk-full-text.ts';
import { systemLanguage } from '../core/system-language.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import type { CliIo } from './cli-options.ts';

const told = new WeakSet<CliIo>();

/** The line to print when `error` is a full data disk ('' when it was said already), else null. */
export function diskFullLine(io: CliIo, error: unknown): string | null {
  const dataDir = error instanceof DataDiskFullError ? error.dataDir : io.dataDir;
  if (!isDiskFull(error, dataDir)) return null;
  if (told.has(io)) return '';
  told.add(io);
  return diskFullTexts(io.language ?? systemLanguage(io.env)).cli(dataDir ?? 'unknown');
}

/** The settings' language, `system` resolved from the run's environment, as the local service does. */
export function cliLanguage(io: CliIo, chosen: 'system' | Language | null): Language {
  return chosen === null || chosen === 'system' ? systemLanguage(io.env) : chosen;
}

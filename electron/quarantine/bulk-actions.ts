// Actions on several files: one after another (each moves a whole file), and every
// item gets its own outcome, so one failure does not stop the others.
import path from 'node:path';
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { Result } from '../../shared/result.ts';
import type { RestoreOptions } from './quarantine.ts';
import { fail } from './quarantine-errors.ts';
import type { QuarantineVault } from './quarantine-vault.ts';

export async function bulk<I>(items: readonly I[], idOf: (item: I) => string, run: (item: I) => Promise<Result<QuarantineEntry>>): Promise<Array<BulkOutcome<QuarantineEntry>>> {
  const outcomes: Array<BulkOutcome<QuarantineEntry>> = [];
  for (const item of items) {
    let result: Result<QuarantineEntry>;
    try {
      result = await run(item);
    } catch (error) {
      result = fail('io_error', (error as Error).message);
    }
    outcomes.push(result.ok ? { id: idOf(item), ok: true, value: result.value } : { id: idOf(item), ok: false, error: result.error });
  }
  return outcomes;
}

/** Restore options that put an entry's file into `toFolder` under its own name (none without a folder). */
export function intoFolder(vault: QuarantineVault, entryId: string, toFolder: string | undefined): RestoreOptions {
  if (toFolder === undefined) return {};
  const entry = vault.store.get(entryId);
  return entry ? { to: path.join(path.resolve(toFolder), entry.fileName) } : {};
}

// Restoring several quarantined files into one folder the user chose (their own
// places were taken): each goes in under its own name, or as "name (2).ext",
// "name (3).ext"… when that name is taken there, by a file already in the folder
// or by one restored just before it. Nothing is replaced: the quarantine refuses a
// taken place (`restore_conflict`, also when something appears there meanwhile),
// and the next number is tried.
import path from 'node:path';
import type { BulkOutcome, QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { Result } from '../../shared/result.ts';
import { explainQuarantineError, quarantineRefusal } from './error-params.ts';
import type { Quarantine } from './quarantine.ts';

/** How many names are tried per file before it is reported as a conflict. */
export const MAX_NUMBERED_NAMES = 1000;

/** `report.pdf` → `report (2).pdf`; the last extension stays last so the file still opens with its program. */
export function numberedName(fileName: string, n: number): string {
  if (n <= 1) return fileName;
  const dot = fileName.lastIndexOf('.');
  // No extension, or a dot-file such as `.bashrc` (its dot starts the name).
  if (dot <= 0) return `${fileName} (${n})`;
  return `${fileName.slice(0, dot)} (${n})${fileName.slice(dot)}`;
}

export async function restoreIntoFolder(
  quarantine: Pick<Quarantine, 'get' | 'restore' | 'allow'>,
  entryIds: readonly string[],
  folder: string,
  action: 'restore' | 'allow',
): Promise<Array<BulkOutcome<QuarantineEntry>>> {
  const outcomes: Array<BulkOutcome<QuarantineEntry>> = [];
  const into = path.resolve(folder);
  for (const id of entryIds) {
    const entry = quarantine.get(id);
    if (!entry) {
      outcomes.push({ id, ok: false, error: quarantineRefusal('not_found', 'There is no quarantined file with this id.') });
      continue;
    }
    let to = '';
    const place = (n: number): Promise<Result<QuarantineEntry>> => {
      to = path.join(into, numberedName(entry.fileName, n));
      return action === 'allow' ? quarantine.allow(id, { to }) : quarantine.restore(id, { to });
    };
    let n = 1;
    let result = await place(n);
    while (!result.ok && result.error.code === 'restore_conflict' && n < MAX_NUMBERED_NAMES) result = await place(++n);
    outcomes.push(result.ok ? { id, ok: true, value: result.value } : { id, ok: false, error: explainQuarantineError(result.error, 'restore', to) });
  }
  return outcomes;
}

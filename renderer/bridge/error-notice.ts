// How a failed core call is told: a full data disk in the user's language with the folder
// and what to do; anything else as "Something went wrong" over the core's own words.
import type { Result } from '../../shared/result.ts';
import { displayName } from '../../shared/display-name.ts';
import type { VerdictStore } from '../store/store.ts';

type Failure = Extract<Result<unknown>, { ok: false }>['error'];

export function notifyFailure(store: Pick<VerdictStore, 'notify'>, error: Failure): void {
  const dir = error.params?.dataDir;
  if (error.code === 'data_disk_full' && typeof dir === 'string') store.notify('error', 'error.dataDiskFull', { dir: displayName(dir) });
  else store.notify('error', 'error.generic', undefined, { tool: 'core', words: error.message });
}

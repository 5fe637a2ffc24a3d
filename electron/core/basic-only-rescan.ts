// "Scan again with ClamAV (N files)" (issue 14): once ClamAV scans, files that only
// the built-in engine judged clean are sent again, bypassing verdict reuse. Files
// no longer on disk are left out; either way each is offered once.
import { stat } from 'node:fs/promises';
import { fsPath } from '../file-names/fs-path.ts';
import type { CoreApi } from '../../shared/bridge/api.ts';
import { clamavScansNow } from '../../shared/engine/clamav-available.ts';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import type { History } from '../history/history.ts';
import type { Guard } from './core-context.ts';
import type { Submit } from './scans-api.ts';

/** More than one press of the button sends: the rest stay counted for the next one. */
export const BASIC_ONLY_RESCAN_MAX = 10_000;

interface BasicOnlyDeps {
  guard: Guard;
  history: Pick<History, 'basicOnly'>;
  submit: Submit;
  /** The protection state now (the core's: it looks once when nothing is known yet). */
  protection: () => Promise<Result<ProtectionView>>;
  now?: () => Date;
}

export function basicOnlyApi(deps: BasicOnlyDeps): Pick<CoreApi['scans'], 'basicOnlyCount' | 'rescanBasicOnly'> {
  const { guard, history } = deps;
  return {
    basicOnlyCount: () => guard('Counting files checked by basic checks only', () => ok({ count: history.basicOnly.count() })),
    rescanBasicOnly: () =>
      guard('Scanning again with ClamAV', async () => {
        const view = await deps.protection();
        if (!view.ok) return view;
        if (!clamavScansNow(view.value)) return err('clamav_not_available', 'ClamAV is not available: the files would get basic checks only again.');
        const paths = history.basicOnly.paths(BASIC_ONLY_RESCAN_MAX);
        const present = await filesThatExist(paths);
        if (present.length > 0) {
          const submitted = await deps.submit(present, { origin: 'rescan', force: true });
          if (!submitted.ok) return submitted;
        }
        history.basicOnly.markRescanRequested(paths, (deps.now?.() ?? new Date()).toISOString());
        return ok({ queued: present.length, missing: paths.length - present.length });
      }),
  };
}

async function filesThatExist(paths: readonly string[]): Promise<string[]> {
  const checks = await Promise.all(paths.map((path) => stat(fsPath(path)).then((info) => info.isFile(), () => false)));
  return paths.filter((_, index) => checks[index]);
}

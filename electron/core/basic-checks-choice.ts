// "Scan with basic checks only" (issue 14, never downgrade silently): the user's
// choice for files that wait for ClamAV, known here and gone, or failed waiting.
// A waiting file is switched where it waits (the embedded service's scan, or the
// file at the local engine, named by its reference, goes on with the built-in
// engine: no second submission, no second history row); a file
// that failed with clamav_unavailable is sent again with basic checks allowed.
import type { CoreApi } from '../../shared/bridge/api.ts';
import { err, ok } from '../../shared/result.ts';
import { basicChecksChoiceFor } from '../../shared/engine/basic-checks-choice.ts';
import { LOCAL_LABEL } from '../backend/backend-state.ts';
import type { History } from '../history/history.ts';
import type { Guard } from './core-context.ts';
import type { Submit } from './scans-api.ts';

interface BasicChecksDeps {
  guard: Guard;
  history: Pick<History, 'get'>;
  submit: Submit;
  /** Lets these scans of the embedded service continue with the built-in engine; false without a running service. */
  allowBasicOnly: (serviceScanIds: readonly string[]) => boolean;
}

export function basicChecksApi(deps: BasicChecksDeps): Pick<CoreApi['scans'], 'scanWithBasicChecks'> {
  return {
    scanWithBasicChecks: (ids) =>
      deps.guard('Scanning with basic checks only', async () => {
        if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length === 0)) return err('invalid_request', 'Expected a list of scan ids.');
        const waiting: string[] = [];
        const failed: string[] = [];
        for (const id of new Set(ids)) {
          const record = deps.history.get(id);
          const choice = record ? basicChecksChoiceFor(record) : null;
          // A waiting file is switched where it waits: only the embedded engine waits for ClamAV. A file sent to it
          // straight (no service scan) is known there by its reference.
          if (choice === 'switch' && record?.backend === LOCAL_LABEL) waiting.push(record.serviceScanId ?? record.externalReferenceId);
          else if (choice === 'resubmit' && record) failed.push(record.path);
        }
        const switched = waiting.length > 0 && deps.allowBasicOnly(waiting) ? waiting.length : 0;
        let queued = 0;
        if (failed.length > 0) {
          const submitted = await deps.submit(failed, { origin: 'rescan', force: true, basicOnly: true });
          if (!submitted.ok) return submitted;
          queued = submitted.value.queued;
        }
        return ok({ switched, queued, skipped: new Set(ids).size - switched - failed.length });
      }),
  };
}

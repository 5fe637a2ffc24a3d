// The core's scans API, and submit(): the one way paths reach the pipeline,
// checked here because callers (IPC, CLI, second instance) send anything.
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { LINK_OUTSIDE, linkOutsideParamsSchema } from '../../shared/scans/exclusion.ts';
import { historyQuerySchema, modeChoiceSchema, type ScanOrigin, type ScanRecord, type SubmitSummary } from '../../shared/scans/record.ts';
import { consentOriginSchema } from '../../shared/settings/protection.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import type { History } from '../history/history.ts';
import type { Logger } from '../logging/logger.ts';
import type { ScanEvents } from '../scans/events.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import { basicChecksApi } from './basic-checks-choice.ts';
import { basicOnlyApi } from './basic-only-rescan.ts';
import { digestsApi } from './digests-on-request.ts';
import type { Guard } from './core-context.ts';

export interface CoreSubmitOptions {
  origin: ScanOrigin;
  mode?: Settings['mode'];
  force?: boolean;
  uploadConsent?: string;
  /** "Scan with basic checks only": when ClamAV is gone, these files are not held for it. */
  basicOnly?: boolean;
  /** A watched folder the paths are checked against (a link out of it is not followed). */
  within?: string;
}

export type Submit = (paths: string[], options: CoreSubmitOptions) => Promise<Result<SubmitSummary & { ids: string[] }>>;

export function createSubmit(scans: ScanPipeline, log: Logger): Submit {
  return async (paths, submitOptions) => {
    try {
      if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string' || path.length === 0)) {
        return err('invalid_request', 'Expected a list of file or folder paths.');
      }
      if (submitOptions.mode !== undefined && !modeChoiceSchema.safeParse(submitOptions.mode).success) {
        return err('invalid_request', 'The mode must be auto, sync or async.');
      }
      if (submitOptions.uploadConsent !== undefined && !consentOriginSchema.safeParse(submitOptions.uploadConsent).success) {
        return err('invalid_request', 'The consent must name a service origin such as https://scan.example.com.');
      }
      return ok(await scans.submit(paths, submitOptions));
    } catch (error) {
      log.error({ err: error }, 'submit failed');
      return err('submit_failed', `The files could not be queued: ${(error as Error).message}`);
    }
  };
}

export function scansApi(input: {
  guard: Guard;
  submit: Submit;
  scans: ScanPipeline;
  history: History;
  events: ScanEvents;
  protection: () => Promise<Result<ProtectionView>>;
  /** "Scan with basic checks only" for scans waiting at the embedded service (see basic-checks-choice.ts). */
  allowBasicOnly: (serviceScanIds: readonly string[]) => boolean;
  /** A recheck's changed verdict with the scan it replaces (electron/recheck/recheck-link.ts). */
  withRecheckLink?: (record: ScanRecord) => ScanRecord;
}): CoreApi['scans'] {
  const { guard, submit, scans, history, events } = input;
  return {
    ...basicOnlyApi({ guard, history, submit, protection: input.protection }),
    ...basicChecksApi({ guard, history, submit, allowBasicOnly: input.allowBasicOnly }),
    ...digestsApi({ guard, history }),
    submit: async (paths, submitOptions) => {
      const result = await submit(paths, { origin: 'dialog', mode: submitOptions?.mode, uploadConsent: submitOptions?.consent });
      return result.ok
        ? ok({ queued: result.value.queued, skipped: result.value.skipped, linksNotFollowed: result.value.linksNotFollowed, failed: result.value.failed })
        : result;
    },
    list: (query) =>
      guard('Listing scans', () => {
        const parsed = historyQuerySchema.safeParse(query);
        if (!parsed.success) return err('invalid_request', 'The history query is not valid.');
        return ok(history.query(parsed.data));
      }),
    get: (id) =>
      guard('Reading a scan', () => {
        // Shown is on disk, as history.query sees to for lists: the writes waiting for their grouped commit go first.
        history.flush();
        const record = typeof id === 'string' ? history.get(id) : null;
        if (!record) return err('not_found', 'There is no scan with this id.');
        return ok(input.withRecheckLink ? input.withRecheckLink(record) : record);
      }),
    rescan: (id, rescanOptions) =>
      guard('Scanning again', async () => {
        const record = typeof id === 'string' ? history.get(id) : null;
        if (!record) return err('not_found', 'There is no scan with this id.');
        // A link skipped as leading out of its folder is checked against that folder again, not followed because it is named here.
        const link = record.error?.code === LINK_OUTSIDE ? linkOutsideParamsSchema.safeParse(record.error.params) : null;
        const within = link?.success ? { within: link.data.folder } : {};
        const result = await submit([record.path], { origin: 'rescan', force: true, uploadConsent: rescanOptions?.consent, ...within });
        return result.ok ? ok({ queued: result.value.queued }) : result;
      }),
    counts: () => guard('Counting scans', () => ok(history.counts())),
    allowUpload: (ids, origin) =>
      guard('Allowing the upload', () => {
        if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) return err('invalid_request', 'Expected a list of scan ids.');
        if (!consentOriginSchema.safeParse(origin).success) return err('invalid_request', 'Expected a service origin such as https://scan.example.com.');
        return ok({ released: scans.allowUpload(ids, origin) });
      }),
    onEvent: (listener) => events.subscribe(listener),
  };
}

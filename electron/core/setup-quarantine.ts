// The core's quarantine capability: the quarantine opened and recovered before
// anything scans, the threat actions that act on verdicts, and the quarantine API.
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { History } from '../history/history.ts';
import { openQuarantine, type Quarantine } from '../quarantine/quarantine.ts';
import type { ScanEvents } from '../scans/events.ts';
import type { CoreContext, Guard } from './core-context.ts';
import { createThreatActions, type ThreatActions } from './threat-actions.ts';

export type QuarantineRecovery = Awaited<ReturnType<Quarantine['recover']>>;

/** Opened and recovered before anything scans: a move a crash interrupted is ended first. */
export async function setupQuarantine(ctx: CoreContext): Promise<{ quarantine: Quarantine; recovered: QuarantineRecovery }> {
  const { log } = ctx;
  const quarantine = await openQuarantine(ctx.dataDir, { onStep: ctx.tuning.onQuarantineStep });
  ctx.onClose(() => quarantine.close());
  if (quarantine.warning) log.warn({ warning: quarantine.warning }, 'quarantine');
  const recovered = await quarantine.recover();
  if (recovered.problems.length > 0 || recovered.lost.length > 0 || recovered.adopted.length > 0 || recovered.strays.length > 0) {
    log.warn({ problems: recovered.problems.length, lost: recovered.lost.length, adopted: recovered.adopted.length, strays: recovered.strays.length }, 'quarantine recovery');
  }
  return { quarantine, recovered };
}

export function setupThreats(ctx: CoreContext, input: { history: History; quarantine: Quarantine; events: ScanEvents }): ThreatActions {
  const { settings } = ctx;
  const threats = createThreatActions({
    ...input,
    settings: () => settings.get(),
    saveAllowedNames: (names) => settings.update({ allowedDetectionNames: names }),
    log: ctx.log,
  });
  // Runs after the pipeline has stopped (teardown runs in reverse) and before the quarantine closes.
  ctx.onClose(() => threats.settle());
  return threats;
}

export function quarantineApi(guard: Guard, threats: ThreatActions): CoreApi['quarantine'] {
  const api = threats.api;
  return {
    list: (listOptions) => guard('Listing the quarantine', () => api.list(listOptions)),
    forRecord: (recordId) => guard('Reading the quarantine', () => api.forRecord(recordId)),
    add: (recordIds) => guard('Moving files to quarantine', () => api.add(recordIds)),
    restore: (entryId, restoreOptions) => guard('Restoring a file', () => api.restore(entryId, restoreOptions)),
    allow: (entryId, restoreOptions) => guard('Allowing a file', () => api.allow(entryId, restoreOptions)),
    restoreMany: (entryIds, bulkOptions) => guard('Restoring files', () => api.restoreMany(entryIds, bulkOptions)),
    allowMany: (entryIds, bulkOptions) => guard('Allowing files', () => api.allowMany(entryIds, bulkOptions)),
    deleteMany: (entryIds) => guard('Deleting files', () => api.deleteMany(entryIds)),
    allowRecord: (recordId) => guard('Allowing a file', () => api.allowRecord(recordId)),
    allowed: () => guard('Listing allowed files', () => api.allowed()),
    revokeAllowed: (sha256) => guard('Removing an allowed file', () => api.revokeAllowed(sha256)),
    allowedNames: () => guard('Reading the allowed detection names', () => api.allowedNames()),
    nameAllowPreview: (name) => guard('Counting the files with a detection name', () => api.nameAllowPreview(name)),
    allowName: (name) => guard('Allowing a detection name', () => api.allowName(name)),
    revokeAllowedName: (name) => guard('Removing an allowed detection name', () => api.revokeAllowedName(name)),
  };
}

// What happens after a verdict: nothing (safe, no verdict), "allowed" (the user
// allowed this content before), a notification, or quarantine, by the setting
// of the watched folder the file came from (or the manual-scan setting).
// Pure: the core applies the decision (see notes/protection.md).
import type { ScanRecord } from '../../shared/scans/record.ts';
import type { ThreatAction } from '../../shared/settings/protection.ts';
import { findWatchedFolder } from '../exclusions/watched-folder.ts';
import type { QuarantineRequest } from './quarantine.ts';

export type ThreatResponse =
  | { kind: 'none' }
  /** Content the user allowed earlier: remembered as allowed, no notification, no quarantine. */
  | { kind: 'allowed' }
  | { kind: 'notify' }
  | { kind: 'quarantine'; request: QuarantineRequest };

export interface ThreatContext {
  /** The action for manual scans (settings.threatAction). */
  manualAction: ThreatAction;
  /** Watched folders with their own action (settings.watchedFolders). */
  folders: ReadonlyArray<{ id: string; path: string; threatAction?: ThreatAction }>;
  isAllowed(sha256: string): boolean;
  /** The user restored this content to this path from quarantine: notify, do not take it again. */
  wasRestoredTo?(sha256: string, path: string): boolean;
  platform?: NodeJS.Platform;
}

type Judged = Pick<ScanRecord, 'id' | 'path' | 'origin' | 'status' | 'safe' | 'sha256'>;

/** The action that applies to a record: its watched folder's for automatic scans, else the manual one. */
export function threatActionFor(record: Pick<ScanRecord, 'path' | 'origin'>, context: Omit<ThreatContext, 'isAllowed'>): ThreatAction {
  if (record.origin !== 'watch') return context.manualAction;
  const folder = findWatchedFolder(record.path, context.folders, { platform: context.platform });
  return folder?.threatAction ?? 'notify';
}

export function decideThreatResponse(record: Judged, context: ThreatContext): ThreatResponse {
  if (record.status !== 'completed' || record.safe !== false) return { kind: 'none' };
  if (record.sha256 !== null && context.isAllowed(record.sha256)) return { kind: 'allowed' };
  // Without the digest the content cannot be checked before moving it: tell the user instead.
  if (record.sha256 === null || threatActionFor(record, context) !== 'quarantine') return { kind: 'notify' };
  if (context.wasRestoredTo?.(record.sha256, record.path)) return { kind: 'notify' };
  return { kind: 'quarantine', request: { path: record.path, sha256: record.sha256, recordId: record.id } };
}

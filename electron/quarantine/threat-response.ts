// What happens after a verdict: nothing (safe, no verdict), "allowed" (the user
// allowed this content before, or every finding's detection name), a notification, or quarantine, by the setting
// of the watched folder the file came from (or the manual-scan setting).
// Pure: the core applies the decision (see notes/protection.md).
import type { AllowedBy, ScanRecord } from '../../shared/scans/record.ts';
import type { ThreatAction } from '../../shared/settings/protection.ts';
import { findWatchedFolder } from '../exclusions/watched-folder.ts';
import type { QuarantineRequest } from './quarantine.ts';

export type ThreatResponse =
  | { kind: 'none' }
  /** Content (or every detection name) the user allowed earlier: remembered as allowed, no notification, no quarantine. */
  | { kind: 'allowed'; by: AllowedBy }
  | { kind: 'notify' }
  | { kind: 'quarantine'; request: QuarantineRequest };

export interface ThreatContext {
  /** The action for manual scans (settings.threatAction). */
  manualAction: ThreatAction;
  /** Watched folders with their own action (settings.watchedFolders). */
  folders: ReadonlyArray<{ id: string; path: string; threatAction?: ThreatAction }>;
  isAllowed(sha256: string): boolean;
  /** A detection name the user allows (settings.allowedDetectionNames); none when absent. */
  isNameAllowed?(name: string): boolean;
  /** The user restored this content to this path from quarantine: notify, do not take it again. */
  wasRestoredTo?(sha256: string, path: string): boolean;
  platform?: NodeJS.Platform;
}

type Judged = Pick<ScanRecord, 'id' | 'path' | 'origin' | 'status' | 'safe' | 'sha256'> & { findings?: ScanRecord['findings'] };

/** The action that applies to a record: its watched folder's for automatic scans, else the manual one. */
export function threatActionFor(record: Pick<ScanRecord, 'path' | 'origin'>, context: Omit<ThreatContext, 'isAllowed' | 'isNameAllowed'>): ThreatAction {
  if (record.origin !== 'watch') return context.manualAction;
  const folder = findWatchedFolder(record.path, context.folders, { platform: context.platform });
  return folder?.threatAction ?? 'notify';
}

export function decideThreatResponse(record: Judged, context: ThreatContext): ThreatResponse {
  if (record.status !== 'completed' || record.safe !== false) return { kind: 'none' };
  if (record.sha256 !== null && context.isAllowed(record.sha256)) return { kind: 'allowed', by: 'content' };
  if (everyNameAllowed(record.findings ?? [], context.isNameAllowed)) return { kind: 'allowed', by: 'name' };
  // Without the digest the content cannot be checked before moving it: tell the user instead.
  if (record.sha256 === null || threatActionFor(record, context) !== 'quarantine') return { kind: 'notify' };
  if (context.wasRestoredTo?.(record.sha256, record.path)) return { kind: 'notify' };
  return { kind: 'quarantine', request: { path: record.path, sha256: record.sha256, recordId: record.id } };
}

/**
 * Whether each finding's detection name is allowed: a verdict with no finding named, or with one
 * finding not allowed beside allowed ones, stays a threat.
 */
export function everyNameAllowed(findings: ReadonlyArray<{ name: string }>, isNameAllowed: ((name: string) => boolean) | undefined): boolean {
  return isNameAllowed !== undefined && findings.length > 0 && findings.every((finding) => isNameAllowed(finding.name));
}

// What the core does about threats: the decision after each verdict (allowed
// content, notify, quarantine), moving a file to quarantine and recording it on
// its scan, finishing moves a crash interrupted, and the user's quarantine
// actions (restore, allow, delete, in bulk) with the scan records kept in step.
// The quarantine's journal is the truth about where a file is; a record only
// follows its entry (recordOutcome), also at start after a crash (reconcile).
// Each action lives in its own threat-*.ts; their shared state is ThreatState.
import type { CoreApi } from '../../shared/bridge/api.ts';
import { ok } from '../../shared/result.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import type { History } from '../history/history.ts';
import type { Logger } from '../logging/logger.ts';
import type { Quarantine, QuarantineRequest } from '../quarantine/quarantine.ts';
import { decideThreatResponse, type ThreatResponse } from '../quarantine/threat-response.ts';
import type { ScanEvents } from '../scans/events.ts';
import { allowListActions } from './threat-allow-list.ts';
import { allowNameActions, type SaveAllowedNames } from './threat-allow-names.ts';
import { entryActions } from './threat-entry-actions.ts';
import { addToQuarantine, finishPending, onThreat } from './threat-move.ts';
import { reconcileRecords } from './threat-reconcile.ts';
import { whenSettled, type ThreatState } from './threat-state.ts';

export interface ThreatActions {
  /** The decision after a verdict (the pipeline writes it with the verdict). */
  respond(record: ScanRecord): ThreatResponse;
  /** Moves a threat's file to quarantine in the background (its record says `quarantine_pending`). */
  onThreat(record: ScanRecord, request: QuarantineRequest): void;
  /**
   * Brings each record that still says its file is in quarantine in line with its entry, which recovery
   * (or an action the crash cut short before its record was written) took to restored, allowed, deleted
   * or lost. Call at start, after the quarantine's recover(); returns how many records changed.
   */
  reconcile(): number;
  /** Finishes the quarantines a crash interrupted (records still `quarantine_pending`); call at start. */
  finishPending(): void;
  api: CoreApi['quarantine'];
  /** Resolves when no move or quarantine action is running. */
  idle(): Promise<void>;
  /** Refuses new moves and waits for those still running (before the quarantine is closed). */
  settle(): Promise<void>;
}

export function createThreatActions(input: {
  history: History;
  quarantine: Quarantine;
  settings: () => Settings;
  /** Saves the allowed detection names (the settings store). */
  saveAllowedNames: SaveAllowedNames;
  events: ScanEvents;
  log: Logger;
}): ThreatActions {
  const { saveAllowedNames, ...stores } = input;
  const state: ThreatState = { ...stores, running: new Set(), closing: false };
  const { quarantine } = state;
  return {
    respond(record) {
      const settings = input.settings();
      return decideThreatResponse(record, {
        manualAction: settings.threatAction,
        folders: settings.watchedFolders,
        isAllowed: (sha256) => quarantine.isAllowed(sha256),
        isNameAllowed: (name) => settings.allowedDetectionNames.includes(name),
        wasRestoredTo: (sha256, path) => quarantine.wasRestoredTo(sha256, path),
      });
    },
    onThreat: (record, request) => onThreat(state, record, request),
    reconcile: () => reconcileRecords(state),
    finishPending: () => finishPending(state),
    api: {
      list: async (options) => ok(quarantine.list(options)),
      forRecord: async (recordId) => ok(quarantine.byRecord(recordId)),
      add: (recordIds) => addToQuarantine(state, recordIds),
      ...entryActions(state),
      ...allowListActions(state),
      ...allowNameActions(state, saveAllowedNames),
    },
    idle: () => whenSettled(state),
    async settle() {
      state.closing = true;
      await whenSettled(state);
    },
  };
}

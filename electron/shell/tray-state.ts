// What the tray shows, derived from the core's events: an icon state (idle,
// scanning, threat found), the last few verdicts, and whether watching is paused.
// Pure: a reducer and a menu model, tested without Electron.
import type { ProtectionView, WatchedFolderStatus } from '../../shared/bridge/api.ts';
import type { ProtectionState } from '../../shared/engine/protection-state.ts';
import { displayName } from '../../shared/display-name.ts';
import { TERMINAL_STATUSES, verdictOf, type QueueCounts, type ScanEvent, type Verdict } from '../../shared/scans/record.ts';
import type { ScheduledKind } from '../../shared/settings/schedules.ts';
import type { SchedulesView } from '../jobs/schedule/schedule-view.ts';
import type { ShellTexts } from './texts.ts';

export type TrayIcon = 'idle' | 'scanning' | 'threat';
export type WatchSummary = 'none' | 'watching' | 'paused';

export interface RecentVerdict {
  id: string;
  fileName: string;
  verdict: Verdict;
}

export interface TrayState {
  counts: QueueCounts;
  /** Threats found since the user last opened the window. */
  unseenThreats: readonly string[];
  /** Newest first. */
  recent: readonly RecentVerdict[];
  watch: WatchSummary;
  /** The protection state of Verdict's engine; null until known, and with a remote service (its engine is not Verdict's). */
  protection: ProtectionState | null;
  /** The next scheduled quick or full scan (ISO time); null when no schedule is on. */
  nextScan: { kind: ScheduledKind; at: string } | null;
  /** The soonest run of a scheduled saved scan (ISO time); the sooner of the two is shown. */
  nextSaved: { name: string; at: string } | null;
  /** The names of the saved scans, each a menu item that runs it. */
  savedScans: readonly string[];
  /** Removable drives offered and not answered yet (electron/drives/), each a menu item that scans it. */
  driveOffers: ReadonlyArray<{ mountPoint: string; label: string }>;
}

export const RECENT_LIMIT = 5;

export const initialTrayState: TrayState = {
  counts: { queued: 0, uploading: 0, processing: 0 },
  unseenThreats: [],
  recent: [],
  watch: 'none',
  protection: null,
  nextScan: null,
  nextSaved: null,
  savedScans: [],
  driveOffers: [],
};

/** At most this many saved scans in the menu (the rest are run from the window). */
export const TRAY_SAVED_LIMIT = 10;

export function withSavedScans(state: TrayState, names: readonly string[]): TrayState {
  const next = names.slice(0, TRAY_SAVED_LIMIT);
  return next.length === state.savedScans.length && next.every((name, i) => name === state.savedScans[i]) ? state : { ...state, savedScans: next };
}

export function withDriveOffers(state: TrayState, offers: ReadonlyArray<{ mountPoint: string; label: string }>): TrayState {
  const same = offers.length === state.driveOffers.length && offers.every((offer, i) => offer.mountPoint === state.driveOffers[i]?.mountPoint);
  return same ? state : { ...state, driveOffers: offers.map(({ mountPoint, label }) => ({ mountPoint, label })) };
}

export function reduceTray(state: TrayState, event: ScanEvent): TrayState {
  switch (event.type) {
    case 'counts':
      return { ...state, counts: event.counts };
    case 'removed': {
      const gone = new Set(event.ids);
      return {
        ...state,
        recent: state.recent.filter((item) => !gone.has(item.id)),
        unseenThreats: state.unseenThreats.filter((id) => !gone.has(id)),
      };
    }
    case 'record': {
      const { record } = event;
      if (!TERMINAL_STATUSES.includes(record.status) || record.status === 'skipped') return state;
      const verdict = verdictOf(record);
      const recent = [{ id: record.id, fileName: record.fileName, verdict }, ...state.recent.filter((item) => item.id !== record.id)].slice(0, RECENT_LIMIT);
      const unseenThreats =
        verdict === 'unsafe' && !state.unseenThreats.includes(record.id) ? [...state.unseenThreats, record.id] : state.unseenThreats;
      return { ...state, recent, unseenThreats };
    }
    case 'progress':
      return state;
  }
}

/** Opening the window shows the user the threats; the tray calms down. */
export function acknowledgeThreats(state: TrayState): TrayState {
  return state.unseenThreats.length === 0 ? state : { ...state, unseenThreats: [] };
}

export function summarizeWatch(folders: readonly WatchedFolderStatus[]): WatchSummary {
  if (folders.length === 0) return 'none';
  return folders.every((status) => status.folder.paused || status.state === 'paused') ? 'paused' : 'watching';
}

export function withWatch(state: TrayState, folders: readonly WatchedFolderStatus[]): TrayState {
  const watch = summarizeWatch(folders);
  return watch === state.watch ? state : { ...state, watch };
}

export function withProtection(state: TrayState, view: ProtectionView): TrayState {
  const protection = view.status?.state ?? null;
  return protection === state.protection ? state : { ...state, protection };
}

export function withSchedules(state: TrayState, view: SchedulesView): TrayState {
  const next = view.next;
  if (next?.kind === state.nextScan?.kind && next?.at === state.nextScan?.at) return state;
  return { ...state, nextScan: next };
}

export function withSavedNext(state: TrayState, next: { name: string; at: string } | null): TrayState {
  if (next?.name === state.nextSaved?.name && next?.at === state.nextSaved?.at) return state;
  return { ...state, nextSaved: next };
}

/** "Next scan: …": the sooner of the quick or full scan's and the saved scans' next runs; null when none is scheduled. */
export function nextScanText(state: TrayState, texts: ShellTexts): string | null {
  const { nextScan, nextSaved } = state;
  if (nextSaved !== null && (nextScan === null || Date.parse(nextSaved.at) < Date.parse(nextScan.at))) return texts.nextSavedScan(shorten(displayName(nextSaved.name), 40), nextSaved.at);
  return nextScan === null ? null : texts.nextScan(nextScan.kind, nextScan.at);
}

/** Protection that is limited, outdated or not running, which the tooltip and the menu's first line name. */
export function protectionProblem(state: TrayState): Exclude<ProtectionState, 'protected'> | null {
  return state.protection === null || state.protection === 'protected' ? null : state.protection;
}

/** The icon's state, the protection problem when there is one, the next scheduled scan when there is one: "Verdict · Limited protection: … · Next scan: …". */
export function trayTooltip(state: TrayState, texts: ShellTexts): string {
  const problem = protectionProblem(state);
  const parts = [texts.tooltip[trayIcon(state)]];
  if (problem !== null) parts.push(texts.protection[problem]);
  const next = nextScanText(state, texts);
  if (next !== null) parts.push(next);
  return parts.join(' · ');
}

export function trayIcon(state: TrayState): TrayIcon {
  if (state.unseenThreats.length > 0) return 'threat';
  const { queued, uploading, processing } = state.counts;
  return queued + uploading + processing > 0 ? 'scanning' : 'idle';
}

/** Closing the window keeps Verdict in the tray only while folders are being watched. */
export function keepsRunningInTray(state: TrayState): boolean {
  return state.watch === 'watching';
}

export type TrayAction =
  | { type: 'open' }
  | { type: 'set-paused'; paused: boolean }
  | { type: 'show-scan'; id: string }
  | { type: 'start-job'; kind: 'quick' | 'full' }
  | { type: 'run-saved'; name: string }
  | { type: 'scan-drive'; mountPoint: string }
  | { type: 'quit' };

export type TrayMenuItem = { type: 'separator' } | { type: 'item'; label: string; enabled: boolean; action: TrayAction | null };

/**
 * Menu labels stay one short line: long names keep their start and their extension end.
 * Counted in code points, so an emoji is never cut in half.
 */
export function shorten(text: string, max: number): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  const tail = Math.floor((max - 1) / 3);
  return `${characters.slice(0, max - 1 - tail).join('')}…${characters.slice(characters.length - tail).join('')}`;
}

export function trayMenu(state: TrayState, texts: ShellTexts): TrayMenuItem[] {
  const recent: TrayMenuItem[] =
    state.recent.length === 0
      ? [{ type: 'item', label: texts.noRecentVerdicts, enabled: false, action: null }]
      : state.recent.map((item) => ({
          type: 'item',
          // Hidden and bidi control characters shown as ⟨U+XXXX⟩ before shortening, so the real end is what stays.
          label: `${texts.verdict[item.verdict]}: ${shorten(displayName(item.fileName), 48)}`,
          enabled: true,
          action: { type: 'show-scan', id: item.id },
        }));
  // The protection state first, when known; a click opens the window, where the action that fixes it is.
  const protection: TrayMenuItem[] = state.protection === null ? [] : [{ type: 'item', label: texts.protection[state.protection], enabled: true, action: { type: 'open' } }, { type: 'separator' }];
  // The next scheduled scan, as a line of information (Settings change it).
  const next = nextScanText(state, texts);
  const nextScan: TrayMenuItem[] = next === null ? [] : [{ type: 'item', label: next, enabled: false, action: null }, { type: 'separator' }];
  return [
    ...protection,
    { type: 'item', label: texts.open, enabled: true, action: { type: 'open' } },
    { type: 'separator' },
    state.watch === 'paused'
      ? { type: 'item', label: texts.resumeWatching, enabled: true, action: { type: 'set-paused', paused: false } }
      : { type: 'item', label: texts.pauseWatching, enabled: state.watch === 'watching', action: { type: 'set-paused', paused: true } },
    { type: 'separator' },
    ...nextScan,
    { type: 'item', label: texts.quickScan, enabled: true, action: { type: 'start-job', kind: 'quick' } },
    { type: 'item', label: texts.fullScan, enabled: true, action: { type: 'start-job', kind: 'full' } },
    ...state.savedScans.map((name): TrayMenuItem => ({ type: 'item', label: texts.runSaved(shorten(displayName(name), 40)), enabled: true, action: { type: 'run-saved', name } })),
    ...state.driveOffers.map((offer): TrayMenuItem => ({ type: 'item', label: texts.scanDrive(shorten(displayName(offer.label), 40)), enabled: true, action: { type: 'scan-drive', mountPoint: offer.mountPoint } })),
    { type: 'separator' },
    { type: 'item', label: texts.recentVerdicts, enabled: false, action: null },
    ...recent,
    { type: 'separator' },
    { type: 'item', label: texts.quit, enabled: true, action: { type: 'quit' } },
  ];
}

// What the app shows about protection (status line, Settings › Malware engine, tray):
// the state of the engine the default service uses, the database folder, and the
// signature update in progress or last finished. Pure, shared by core and renderer.
import type { ProtectionStatus } from './protection-state.ts';

/** How an "Update signatures now" ended: freshclam's outcome, or why it could not run. */
export const SIGNATURE_UPDATE_CODES = [
  'updated', // {version?}
  'current', // {version?}
  'no_connection', // {detail}
  'cool_down', // {until?}
  'mirror_refused', // {until?}
  'disk_full', // {detail}
  'not_writable', // {detail}
  'failed', // {detail}
  'freshclam_missing',
  'system_database', // the system's updater keeps this clamd's signatures: Verdict does not touch them
  'remote_service', // the engine is the remote service's
  'timeout',
  'spawn_failed', // {detail}
  'data_dir_unwritable', // {detail}
] as const;
export type SignatureUpdateCode = (typeof SIGNATURE_UPDATE_CODES)[number];

export interface SignatureUpdateOutcome {
  code: SignatureUpdateCode;
  params: Record<string, string | number>;
  /** ISO time the run ended. */
  at: string;
}

export type SignatureUpdateState =
  | { phase: 'idle'; last: SignatureUpdateOutcome | null }
  /** `line`: freshclam's latest progress line. */
  | { phase: 'running'; line: string | null; last: SignatureUpdateOutcome | null };

export interface ProtectionView {
  /** null with a remote service: the engine is that service's, and Verdict knows nothing of it. */
  status: ProtectionStatus | null;
  /** The remote service's address when it is the engine's home. */
  remote: string | null;
  /** The signature folder of the engine in use, when known. */
  databaseDir: string | null;
  update: SignatureUpdateState;
  /** When the state was last looked at (ISO). */
  checkedAt: string;
}

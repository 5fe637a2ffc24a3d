// The protection state Verdict shows (main window, settings, tray, `status` CLI):
// one of five states, each with the reason as a code and params, and the one
// action that fixes it. Pure: the core computes it, the UI words it (en/de).
// `failing` comes from the self-test (self-test.ts): the engine answers but missed EICAR.
import type { CoverageLimits } from '../scans/coverage.ts';
import type { DetectionSettings } from '../settings/detection.ts';
import type { SelfTestResult } from './self-test.ts';
import { signatureAgeDays, type EngineIdentity, type EngineName, type SignatureBasis } from './engine-identity.ts';

export const PROTECTION_STATES = ['protected', 'outdated', 'limited', 'not_running', 'failing'] as const;
export type ProtectionState = (typeof PROTECTION_STATES)[number];

/**
 * Whose clamd it is, from facts, never from its socket path: `configured` the user named it (Settings,
 * `--clamd`); `own` Verdict started it (its config in the data directory); `system` one at the usual
 * sockets that another account runs (the socket is not the user's own, as with Debian's `clamav`);
 * `found` one at the usual sockets that the user's own account runs and Verdict did not start; or none.
 */
export const ENGINE_SOURCES = ['configured', 'system', 'own', 'found', 'builtin'] as const;
export type EngineSource = (typeof ENGINE_SOURCES)[number];

/** Signatures older than this many days are outdated (ClamTk warns from 4). */
export const MAX_SIGNATURE_AGE_DAYS = 3;

/** Why the state is what it is. */
export const PROTECTION_REASONS = [
  'signatures_fresh', // protected: {signatureVersion, ageDays}
  'signatures_old', // outdated: {signatureVersion, ageDays, maxAgeDays}
  'signatures_undated', // outdated: clamd names no signature version (custom databases only)
  'builtin_requested', // limited: the user chose the built-in engine
  'clamav_not_found', // limited: no clamd answered and none is installed: {tried}
  'database_not_found', // limited: clamd is installed but no signature database was found: {tried}
  'clamd_starting', // not_running: Verdict's own clamd is loading its signatures
  'clamd_not_answering', // not_running: {where, detail}
  'clamd_failed', // not_running: Verdict's own clamd could not start: {problem, detail}
  'self_test_failed', // failing: the engine answered the EICAR test file as clean: {at}
] as const;
export type ProtectionReason = (typeof PROTECTION_REASONS)[number];

/** The one action that fixes the state (the status line's button). */
export const PROTECTION_ACTIONS = [
  'none',
  'wait', // clamd is loading
  'update_signatures', // run freshclam into Verdict's own database
  'check_system_updater', // a system clamd: the distribution's updater (clamav-freshclam) keeps it current
  'install_clamav', // how to install ClamAV for this OS
  'get_database', // clamd is there but has nothing to load: update signatures into Verdict's folder
  'start_clamav', // start (or restart) clamd
  'use_clamav', // the built-in engine was chosen: switch back to auto
] as const;
export type ProtectionAction = (typeof PROTECTION_ACTIONS)[number];

export type ProtectionParams = Record<string, string | number>;

/** What is known about the engine in use (or missing), as the core gathers it. */
export type EngineFacts =
  | { kind: 'clamav'; source: Exclude<EngineSource, 'builtin'>; where: string; identity: EngineIdentity; streamLimit?: StreamLimit | null }
  | { kind: 'builtin'; why: 'builtin_requested' | 'clamav_not_found' | 'database_not_found'; params?: ProtectionParams }
  | { kind: 'starting'; where: string }
  | { kind: 'not_running'; source: Exclude<EngineSource, 'builtin'>; where: string; why: 'clamd_not_answering' | 'clamd_failed'; params?: ProtectionParams };

/** `fildes`: the open file's descriptor is passed to clamd; `instream`: its bytes are streamed (TCP, no addon, descriptors dropped). */
export type ClamdTransfer = 'fildes' | 'instream';

/** A clamd's StreamMaxLength, when its config file could be read. */
export interface StreamLimit {
  bytes: number;
  /** The config file it was read from, where the user raises it. */
  configPath: string;
}

export interface ProtectionStatus {
  state: ProtectionState;
  reason: { code: ProtectionReason; params: ProtectionParams };
  action: ProtectionAction;
  engine: {
    name: EngineName;
    source: EngineSource;
    where: string;
    version: string | null;
    signatures: { version: number; date: string; ageDays: number } | null;
    /** ClamAV: what its signatures are known by (EngineIdentity); absent otherwise. */
    signatureBasis?: SignatureBasis;
    databases?: string;
    /** ClamAV: its detection settings' key when not the defaults (EngineIdentity.detection). */
    detection?: string;
    /** How files reach clamd: by descriptor (FILDES) or streamed (INSTREAM); absent when not ClamAV or not known. */
    transport?: ClamdTransfer;
  };
  /** Set when the clamd in use limits streams below what Verdict sends (100 MB). */
  streamLimit: StreamLimit | null;
  /** The last self-test of the engine, once one ran (self-test.ts). */
  selfTest?: SelfTestResult;
  /** ClamAV's scan limits and whether what lies beyond them is reported (scanned in part); null: unknown; absent: not ClamAV, or not looked at. */
  coverage?: CoverageLimits | null;
  /** What the clamd in use detects (PUA, limits, archives, heuristics; issue 28 §2); null: not known; absent: not ClamAV, or not looked at. */
  detection?: DetectionView | null;
}

/** Verdict's own clamd's settings (the user's), or a system clamd's as its clamd.conf says (shown read-only). */
export interface DetectionView {
  settings: DetectionSettings;
  source: 'own' | 'system';
  configPath: string;
}

export function protectionStatus(facts: EngineFacts, now: Date, serviceLimitBytes: number): ProtectionStatus {
  switch (facts.kind) {
    case 'clamav':
      return clamavStatus(facts, now, serviceLimitBytes);
    case 'builtin':
      return {
        state: 'limited',
        reason: { code: facts.why, params: facts.params ?? {} },
        action: facts.why === 'builtin_requested' ? 'use_clamav' : facts.why === 'database_not_found' ? 'get_database' : 'install_clamav',
        engine: { name: 'builtin', source: 'builtin', where: 'in-process', version: null, signatures: null },
        streamLimit: null,
      };
    case 'starting':
      return {
        state: 'not_running',
        reason: { code: 'clamd_starting', params: { where: facts.where } },
        action: 'wait',
        engine: { name: 'clamav', source: 'own', where: facts.where, version: null, signatures: null },
        streamLimit: null,
      };
    case 'not_running':
      return {
        state: 'not_running',
        reason: { code: facts.why, params: { where: facts.where, ...facts.params } },
        action: 'start_clamav',
        engine: { name: 'clamav', source: facts.source, where: facts.where, version: null, signatures: null },
        streamLimit: null,
      };
  }
}

function clamavStatus(facts: Extract<EngineFacts, { kind: 'clamav' }>, now: Date, serviceLimitBytes: number): ProtectionStatus {
  const { identity, source, where } = facts;
  const signatures = identity.signatures ? { ...identity.signatures, ageDays: signatureAgeDays(identity.signatures, now) } : null;
  const known = {
    ...(identity.signatureBasis ? { signatureBasis: identity.signatureBasis } : {}),
    ...(identity.databases ? { databases: identity.databases } : {}),
    ...(identity.detection ? { detection: identity.detection } : {}),
  };
  const engine = { name: 'clamav' as const, source, where, version: identity.version, signatures, ...known };
  const streamLimit = facts.streamLimit && facts.streamLimit.bytes < serviceLimitBytes ? facts.streamLimit : null;
  const updateAction: ProtectionAction = source === 'own' ? 'update_signatures' : 'check_system_updater';
  if (signatures === null) {
    return { state: 'outdated', reason: { code: 'signatures_undated', params: {} }, action: updateAction, engine, streamLimit };
  }
  const params = { signatureVersion: signatures.version, ageDays: signatures.ageDays };
  // Compared exactly: 3 days and 1 second is older than 3 days, though it shows as 3.
  if (now.getTime() - Date.parse(signatures.date) > MAX_SIGNATURE_AGE_DAYS * 86_400_000) {
    return { state: 'outdated', reason: { code: 'signatures_old', params: { ...params, maxAgeDays: MAX_SIGNATURE_AGE_DAYS } }, action: updateAction, engine, streamLimit };
  }
  return { state: 'protected', reason: { code: 'signatures_fresh', params }, action: 'none', engine, streamLimit };
}

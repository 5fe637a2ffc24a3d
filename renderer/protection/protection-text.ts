// The protection state in the user's words (status line, Settings › Malware engine,
// e2e): the headline per state, the reason worded from its code and params, the one
// action that fixes it, the engine's facts and a signature update's outcome. Pure.
import type { EngineSource, ProtectionAction, ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { ProtectionView, SignatureUpdateOutcome } from '../../shared/engine/protection-view.ts';
import { formatSize } from '../i18n/format.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';
import type { ToolSaid } from '../app/tool-said.ts';

export type Platform = 'linux' | 'mac' | 'windows';

/** What the status line's button does. */
export type LineAction = { kind: 'update' } | { kind: 'look_again' } | { kind: 'start_clamav' } | { kind: 'install'; url: string } | null;

const INSTALL_URLS: Record<Platform, string> = {
  linux: 'https://docs.clamav.net/manual/Installing/Packages.html',
  mac: 'https://docs.clamav.net/manual/Installing/Packages.html',
  windows: 'https://docs.clamav.net/manual/Installing/Windows.html',
};

export function platformOf(userAgent: string): Platform {
  if (/Windows/i.test(userAgent)) return 'windows';
  if (/Mac OS X|Macintosh/i.test(userAgent)) return 'mac';
  return 'linux';
}

export function headline(status: ProtectionStatus, tr: Translator): string {
  return tr.t(`protection.state.${status.state}` as MessageKey);
}

export function ageText(ageDays: number, tr: Translator): string {
  return ageDays === 0 ? tr.t('protection.age.today') : tr.tn('protection.age', ageDays);
}

export function reasonText(status: ProtectionStatus, tr: Translator): string {
  const p = status.reason.params;
  const params = {
    ...p,
    version: status.engine.version ?? '',
    // A signature version is a name, not an amount: no digit grouping.
    ...(p.signatureVersion !== undefined ? { signatureVersion: String(p.signatureVersion) } : {}),
    ...(typeof p.ageDays === 'number' ? { age: ageText(p.ageDays, tr) } : {}),
    detail: String(p.detail ?? p.problem ?? ''),
  };
  return tr.t(`protection.reason.${status.reason.code}` as MessageKey, params);
}

/** clamd's own words (or the system's) on why it is not running, shown under the reason. */
export function reasonWords(status: ProtectionStatus): ToolSaid | null {
  const detail = status.reason.params.detail;
  if (typeof detail !== 'string' || detail.trim() === '') return null;
  if (status.reason.code === 'clamd_failed') return { tool: 'clamd', words: detail };
  if (status.reason.code === 'clamd_not_answering') return { tool: 'system', words: detail };
  return null;
}

/** The status line's one action for this state; `source`: the engine's (Verdict's own clamd is Verdict's to start). */
export function lineAction(action: ProtectionAction, platform: Platform, source?: EngineSource): LineAction {
  switch (action) {
    case 'update_signatures':
    case 'get_database':
      return { kind: 'update' };
    case 'install_clamav':
      return { kind: 'install', url: INSTALL_URLS[platform] };
    case 'start_clamav':
      // The same look again; for Verdict's own clamd it starts it, so the button says so.
      return source === 'own' ? { kind: 'start_clamav' } : { kind: 'look_again' };
    case 'check_system_updater':
    case 'use_clamav':
      return { kind: 'look_again' };
    case 'wait':
    case 'none':
      return null;
  }
}

export function actionLabel(action: Exclude<LineAction, null>, tr: Translator): string {
  if (action.kind === 'update') return tr.t('protection.action.update_signatures');
  if (action.kind === 'install') return tr.t('protection.action.install_clamav');
  if (action.kind === 'start_clamav') return tr.t('protection.action.start_clamav');
  return tr.t('protection.action.look_again');
}

/** A line of advice beside the action, when the state needs one. */
export function hintText(action: ProtectionAction, platform: Platform, tr: Translator, source?: EngineSource): string | null {
  switch (action) {
    case 'check_system_updater':
      // Only the system's clamd is the system's to update (a named one, or one the user runs, is theirs).
      return tr.t(source === undefined || source === 'system' ? 'protection.hint.check_system_updater' : 'protection.hint.check_clamd_updater');
    case 'start_clamav':
      // Verdict's own clamd needs no command: the button starts it.
      return source === 'own' ? null : tr.t('protection.hint.start_clamav');
    case 'use_clamav':
      return tr.t('protection.hint.use_clamav');
    case 'install_clamav':
      return tr.t(`protection.hint.install.${platform}`);
    default:
      return null;
  }
}

export function streamLimitText(status: ProtectionStatus, tr: Translator): string | null {
  const limit = status.streamLimit;
  return limit ? tr.t('protection.streamLimit', { size: formatSize(tr.locale, limit.bytes), file: limit.configPath }) : null;
}

/** ClamAV's scan limits and what happens beyond them (scanned in part, or not reported); null when not ClamAV. */
export function scanLimitsText(status: ProtectionStatus, tr: Translator): string | null {
  if (status.coverage === undefined) return null;
  const limits = status.coverage;
  if (limits === null) return tr.t('engine.scanLimits.unknown');
  const values = `MaxFileSize ${limits.maxFileSize}, MaxScanSize ${limits.maxScanSize}, MaxRecursion ${limits.maxRecursion}, MaxFiles ${limits.maxFiles}`;
  if (limits.reported.limits && limits.reported.encrypted) return tr.t('engine.scanLimits.reported', { values });
  const off = [...(limits.reported.limits ? [] : ['AlertExceedsMax']), ...(limits.reported.encrypted ? [] : ['AlertEncryptedArchive'])].join(', ');
  return tr.t('engine.scanLimits.notReported', { values, file: limits.configPath ?? '', off });
}

export function engineNameText(status: ProtectionStatus, tr: Translator): string {
  if (status.engine.name === 'builtin') return tr.t('engine.name.builtin');
  return status.engine.version ? tr.t('engine.name.clamav', { version: status.engine.version }) : tr.t('engine.name.clamavUnknown');
}

export function whereText(view: ProtectionView, tr: Translator): string {
  if (view.remote !== null) return tr.t('engine.where.remote', { host: hostOf(view.remote) });
  const engine = view.status?.engine;
  if (!engine) return '';
  const where = tr.t(`engine.where.${engine.source}` as MessageKey, { where: engine.where });
  // How files reach clamd, once the engine says (by descriptor, or streamed).
  return engine.transport === undefined ? where : `${where}; ${tr.t(`engine.transport.${engine.transport}`)}`;
}

export function signaturesText(status: ProtectionStatus, tr: Translator): string {
  const s = status.engine.signatures;
  if (s) {
    const date = new Intl.DateTimeFormat(tr.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(s.date));
    return tr.t('engine.signatures.dated', { version: String(s.version), date, age: ageText(s.ageDays, tr) });
  }
  return status.engine.name === 'clamav' && status.engine.version !== null ? tr.t('engine.signatures.undated') : tr.t('engine.signatures.none');
}

/** The last self-test in Settings › Malware engine: its result, when, and the signature's name or the error. */
export function selfTestText(status: ProtectionStatus, tr: Translator): string {
  const test = status.selfTest;
  if (!test) return tr.t('engine.selfTest.none');
  const time = new Intl.DateTimeFormat(tr.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(test.at));
  return tr.t(`engine.selfTest.${test.result}` as MessageKey, { time, detail: test.detail ?? '' });
}

const PLAIN_WITHOUT: Partial<Record<SignatureUpdateOutcome['code'], { param: string; key: MessageKey }>> = {
  updated: { param: 'version', key: 'engine.update.updatedPlain' },
  current: { param: 'version', key: 'engine.update.currentPlain' },
  cool_down: { param: 'until', key: 'engine.update.cool_downPlain' },
  mirror_refused: { param: 'until', key: 'engine.update.mirror_refusedPlain' },
};

export function updateOutcomeText(outcome: SignatureUpdateOutcome, tr: Translator): string {
  const plain = PLAIN_WITHOUT[outcome.code];
  if (plain && outcome.params[plain.param] === undefined) return tr.t(plain.key);
  const params = { ...outcome.params, ...(outcome.params.version !== undefined ? { version: String(outcome.params.version) } : {}) };
  return tr.t(`engine.update.${outcome.code}` as MessageKey, params);
}

/** Who said an outcome's detail: freshclam's error lines, or the system's when freshclam could not run. */
const OUTCOME_SOURCES: Partial<Record<SignatureUpdateOutcome['code'], ToolSaid['tool']>> = {
  no_connection: 'freshclam',
  disk_full: 'freshclam',
  not_writable: 'freshclam',
  failed: 'freshclam',
  spawn_failed: 'system',
  data_dir_unwritable: 'system',
};

/** The program's own words on an outcome, shown under its sentence. */
export function updateOutcomeWords(outcome: SignatureUpdateOutcome): ToolSaid | null {
  const tool = OUTCOME_SOURCES[outcome.code];
  const detail = outcome.params.detail;
  return tool && typeof detail === 'string' && detail.trim() !== '' ? { tool, words: detail } : null;
}

/** Whether an update outcome is good news (shown calmly) or needs the user (shown as a problem). */
export function updateSucceeded(outcome: SignatureUpdateOutcome): boolean {
  return outcome.code === 'updated' || outcome.code === 'current';
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

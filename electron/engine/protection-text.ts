// The protection state in words, for the CLIs (English and German) and logs (the UI
// words the same codes and params from its own en/de catalogues). What to do names
// only commands `verdict` has (test/electron/cli/update-cli.test.ts checks it).
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { protectionActionTextDe, protectionReasonTextDe, streamLimitTextDe } from './protection-text-de.ts';

const MB = 1024 * 1024;

export function protectionReasonText(status: ProtectionStatus, language: Language = 'en'): string {
  if (language === 'de') return protectionReasonTextDe(status);
  const p = status.reason.params;
  const where = status.engine.where;
  switch (status.reason.code) {
    case 'signatures_fresh':
      return `ClamAV ${status.engine.version} answers at ${where}; its signatures (version ${p.signatureVersion}) are ${days(p.ageDays)} old.`;
    case 'signatures_old':
      return `ClamAV ${status.engine.version} answers at ${where}, but its signatures (version ${p.signatureVersion}) are ${days(p.ageDays)} old (more than ${p.maxAgeDays}).`;
    case 'signatures_undated':
      return `ClamAV ${status.engine.version} answers at ${where}, but reports no dated official signatures (only custom databases are loaded).`;
    case 'builtin_requested':
      return 'Basic checks were chosen instead of ClamAV: they recognise only the EICAR test file.';
    case 'clamav_not_found':
      return 'ClamAV is not installed (no clamd answered, and none was found): only basic checks look at files, and they recognise only the EICAR test file.';
    case 'database_not_found':
      return `clamd is installed, but no signature database was found (looked in ${p.tried}): only basic checks (EICAR test file only) look at files.`;
    case 'clamd_starting':
      return `Verdict's own clamd at ${where} is loading its signatures; files wait until it answers.`;
    case 'clamd_not_answering':
      return `ClamAV was expected at ${where}, but it does not answer${p.detail ? ` (${p.detail})` : ''}.`;
    case 'clamd_failed':
      return `Verdict's own clamd could not run (${p.problem}): ${p.detail}`;
    case 'self_test_failed':
      return `The self-test failed: ClamAV at ${where} answered the EICAR test file as clean, so it may miss real malware too. Scans go on.`;
  }
}

export function protectionActionText(status: ProtectionStatus, language: Language = 'en'): string {
  if (language === 'de') return protectionActionTextDe(status);
  switch (status.action) {
    case 'none':
      return '';
    case 'wait':
      return 'Loading takes up to a minute with the official database.';
    case 'update_signatures':
      return 'Update the signatures now: `verdict update` (or Settings › Malware engine).';
    case 'check_system_updater':
      // Only the system's clamd is the system's to update; one the user named or runs is theirs (a container's image, their freshclam).
      if (status.engine.source !== 'system') return "Verdict does not update this clamd's signatures: whoever runs it does (a clamav container: its image or its freshclam).";
      return "The system updates this clamd's signatures: check its updater service (Debian, Ubuntu: `systemctl status clamav-freshclam`).";
    case 'install_clamav':
      return 'Install ClamAV (Debian, Ubuntu: `sudo apt install clamav-daemon`; Fedora: `sudo dnf install clamd`; macOS: `brew install clamav`).';
    case 'get_database':
      return 'Get the signatures: `verdict update` downloads them into Verdict\'s own folder (or pass --clamav-db DIR).';
    case 'start_clamav':
      return 'Start ClamAV again, or check its configuration and the message above.';
    case 'use_clamav':
      return 'Choose the engine "auto" to use ClamAV when it is available.';
  }
}

/** The stream-limit advice, when the clamd in use refuses files Verdict would send. */
export function streamLimitText(status: ProtectionStatus, language: Language = 'en'): string | null {
  const limit = status.streamLimit;
  if (!limit) return null;
  if (language === 'de') return streamLimitTextDe(limit);
  return `This clamd refuses files over ${Math.round(limit.bytes / MB)} MB: raise StreamMaxLength (and MaxFileSize, MaxScanSize) above 100M in ${limit.configPath}, then restart clamd.`;
}

function days(value: string | number | undefined): string {
  return value === 1 ? '1 day' : `${value} days`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Who made a verdict, as the detail panel and the CLIs' engine line say it:
 * `ClamAV 1.4.6 · signatures 27467 of 24 Nov 2026`, `ClamAV 1.4.6 · custom signatures only`,
 * or `Basic checks only (EICAR test file): ClamAV was not available`.
 */
export function engineIdentityText(identity: EngineIdentity): string {
  if (identity.name === 'builtin') return 'Basic checks only (EICAR test file): ClamAV was not available';
  const name = identity.version ? `ClamAV ${identity.version}` : 'ClamAV';
  const s = identity.signatures;
  if (!s) return `${name} · custom signatures only`;
  const date = new Date(s.date);
  return `${name} · signatures ${s.version} of ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** The line `scan` and `watch` print on stderr at start: the engine and the state. */
export function engineLine(status: ProtectionStatus): string {
  const { engine } = status;
  const identity = engine.name === 'builtin' ? 'Basic checks only (EICAR test file)' : engineIdentityText({ name: 'clamav', version: engine.version, signatures: engine.signatures });
  const where = engine.name === 'builtin' ? '' : ` at ${engine.where}`;
  return `Engine: ${identity}${where} (${status.state.replace('_', ' ')})`;
}

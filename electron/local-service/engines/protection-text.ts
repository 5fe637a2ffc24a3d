// The protection state in English, for the CLIs and logs (the UI words the same
// codes and params from its own en/de catalogues).
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';

const MB = 1024 * 1024;

export function protectionReasonText(status: ProtectionStatus): string {
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
      return 'The built-in engine was chosen: it recognises only the EICAR test file.';
    case 'clamav_not_found':
      return 'ClamAV is not installed (no clamd answered, and none was found): only the built-in engine checks files, and it recognises only the EICAR test file.';
    case 'database_not_found':
      return `clamd is installed, but no signature database was found (looked in ${p.tried}): only the built-in engine checks files.`;
    case 'clamd_starting':
      return `Verdict's own clamd at ${where} is loading its signatures; files wait until it answers.`;
    case 'clamd_not_answering':
      return `ClamAV was expected at ${where}, but it does not answer${p.detail ? ` (${p.detail})` : ''}.`;
    case 'clamd_failed':
      return `Verdict's own clamd could not run (${p.problem}): ${p.detail}`;
  }
}

export function protectionActionText(status: ProtectionStatus): string {
  switch (status.action) {
    case 'none':
      return '';
    case 'wait':
      return 'Loading takes up to a minute with the official database.';
    case 'update_signatures':
      return 'Update the signatures now (Settings › Malware engine).';
    case 'check_system_updater':
      return "The system updates this clamd's signatures: check its updater service (Debian, Ubuntu: `systemctl status clamav-freshclam`).";
    case 'install_clamav':
      return 'Install ClamAV (Debian, Ubuntu: `sudo apt install clamav-daemon`; Fedora: `sudo dnf install clamd`; macOS: `brew install clamav`).';
    case 'get_database':
      return "Update the signatures now: Verdict downloads them into its own folder (or pass --clamav-db DIR).";
    case 'start_clamav':
      return 'Start ClamAV again, or check its configuration and the message above.';
    case 'use_clamav':
      return 'Choose the engine "auto" to use ClamAV when it is available.';
  }
}

/** The stream-limit advice, when the clamd in use refuses files Verdict would send. */
export function streamLimitText(status: ProtectionStatus): string | null {
  const limit = status.streamLimit;
  if (!limit) return null;
  return `This clamd refuses files over ${Math.round(limit.bytes / MB)} MB: raise StreamMaxLength (and MaxFileSize, MaxScanSize) above 100M in ${limit.configPath}, then restart clamd.`;
}

function days(value: string | number | undefined): string {
  return value === 1 ? '1 day' : `${value} days`;
}

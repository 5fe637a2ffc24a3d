// "Scanned in part" (issue 27 §3): clamd, told to alert on what it could not inspect
// (AlertExceedsMax, AlertEncrypted…), names it as a finding, e.g.
// `Heuristics.Limits.Exceeded.MaxFileSize` or `Heuristics.Encrypted.Zip`. A file whose every
// finding is one of these is neither clean nor a threat: the verdict `partial`, with its reason.

/** result.detailed of such a verdict (the engine's label; stable, so clients may match on it). */
export const SCANNED_IN_PART_LABEL = 'scanned in part';

/** The scan limits a clamd works under, and whether it reports what lies beyond them (electron/engine/conf/coverage-limits.ts). */
export interface CoverageLimits {
  maxFileSize: string;
  maxScanSize: string;
  maxRecursion: string;
  maxFiles: string;
  /** Whether files over a limit (AlertExceedsMax) and encrypted archives (AlertEncryptedArchive or AlertEncrypted) are reported. */
  reported: { limits: boolean; encrypted: boolean };
  /** Where they were read; null for Verdict's own clamd (it writes them). */
  configPath: string | null;
}

/** Why a file was scanned in part, one per kind of clamd heuristic. */
export const COVERAGE_REASONS = ['file-size', 'scan-size', 'recursion', 'files', 'other-limit', 'encrypted-archive', 'encrypted-document', 'encrypted'] as const;
export type CoverageReason = (typeof COVERAGE_REASONS)[number];

const LIMIT_REASONS: Record<string, CoverageReason> = {
  MaxFileSize: 'file-size',
  MaxScanSize: 'scan-size',
  MaxRecursion: 'recursion',
  MaxFiles: 'files',
};

/** Archive formats clamd names in `Heuristics.Encrypted.<Format>` (libclamav's scanners); the rest are documents. */
const ENCRYPTED_ARCHIVES = new Set(['Zip', 'RAR', 'Rar', '7Zip', '7z', 'ARJ', 'Arj', 'Egg', 'EGG']);

/** The reason a finding names, or null when it is a real detection (a signature, or another heuristic). */
export function coverageReasonOf(findingName: string): CoverageReason | null {
  const limit = /^Heuristics\.Limits\.Exceeded(?:\.(\w+))?/.exec(findingName);
  if (limit) return LIMIT_REASONS[limit[1] ?? ''] ?? 'other-limit';
  const encrypted = /^Heuristics\.Encrypted(?:\.(\w+))?/.exec(findingName);
  if (encrypted) {
    const format = encrypted[1];
    if (format === undefined) return 'encrypted';
    return ENCRYPTED_ARCHIVES.has(format) ? 'encrypted-archive' : 'encrypted-document';
  }
  return null;
}

/** Whether findings say only what could not be inspected (at least one, and no real detection among them). */
export function isCoverageOnly(findings: readonly { name: string }[]): boolean {
  return findings.length > 0 && findings.every((finding) => coverageReasonOf(finding.name) !== null);
}

/** The reasons of a scanned-in-part record, each once, in the order of its findings. */
export function coverageReasons(findings: readonly { name: string }[]): CoverageReason[] {
  const reasons = findings.map((finding) => coverageReasonOf(finding.name)).filter((reason): reason is CoverageReason => reason !== null);
  return [...new Set(reasons)];
}

/** The English words for a reason (CLI, logs); the window words them itself (renderer/i18n). */
export const COVERAGE_REASON_TEXT: Record<CoverageReason, string> = {
  'file-size': 'over the scan limit (MaxFileSize): only part of it was scanned',
  'scan-size': 'over the scan limit (MaxScanSize): only part of its contents was scanned',
  recursion: 'nested too deep (MaxRecursion): the innermost contents were not scanned',
  files: 'too many files inside (MaxFiles): only some of them were scanned',
  'other-limit': 'over a scan limit: only part of it was scanned',
  'encrypted-archive': 'an encrypted archive: its contents could not be inspected',
  'encrypted-document': 'an encrypted document: its contents could not be inspected',
  encrypted: 'encrypted: its contents could not be inspected',
};

/** What the summary counts them as: "9 over the size limit, 3 encrypted archives". */
export const COVERAGE_REASON_COUNT: Record<CoverageReason, (count: number) => string> = {
  'file-size': (n) => `${n} over the size limit`,
  'scan-size': (n) => `${n} over the scan size limit`,
  recursion: (n) => `${n} nested too deep`,
  files: (n) => `${n} with too many files inside`,
  'other-limit': (n) => `${n} over another limit`,
  'encrypted-archive': (n) => `${n} ${n === 1 ? 'encrypted archive' : 'encrypted archives'}`,
  'encrypted-document': (n) => `${n} ${n === 1 ? 'encrypted document' : 'encrypted documents'}`,
  encrypted: (n) => `${n} encrypted`,
};

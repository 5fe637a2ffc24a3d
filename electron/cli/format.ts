// How one scan reads on a terminal: shared by the `scan` and `watch` CLIs.
// Plain: `CLEAN  path  (detailed)`, `BASIC  path  (basic checks only …)`, `PARTIAL path  (scanned in part: reason)`,
// `THREAT path  (detailed: findings)`,
// `ALLOWED path  (detailed; allowed by you)`, `ALLOWED path  (detailed: findings; detection allowed by you)`, `ERROR  path  (message)`; JSON: one object per line.
import { findingLabel } from '../../shared/scans/finding-label.ts';
import { displayName } from '../../shared/display-name.ts';
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import { COVERAGE_REASON_TEXT, coverageReasons } from '../../shared/scans/coverage.ts';
import { isGivenWhileSelfTestFailed, verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import { pathBytesOf, visibleBytesReplacer } from '../file-names/written-names.ts';

/**
 * Text as a plain line may show it: control characters (a newline in a file name) would break the
 * one-line-per-file format, and bidi controls would disguise an extension; both become ⟨U+XXXX⟩,
 * as everywhere Verdict shows a name. JSON lines keep the real text (JSON-escaped).
 */
const printable = displayName;

export function formatPlain(record: ScanRecord): string {
  const path = printable(record.path);
  const reused = !record.reusedFromId ? '' : record.reuseKind === 'unchanged' ? ', unchanged since an earlier scan: not read again' : ', earlier verdict reused';
  switch (verdictOf(record)) {
    case 'safe':
      return `CLEAN  ${path}  (${printable(record.detailed ?? 'clean')}${reused}${selfTestNote(record)})`;
    case 'basic-only':
      // The built-in engine found nothing, but it knows only the EICAR test file: never "CLEAN".
      return `BASIC  ${path}  (${BASIC_ONLY_DETAIL}${reused}${selfTestNote(record)})`;
    case 'partial':
      // Over a scan limit or encrypted: not all of it was inspected, so neither CLEAN nor THREAT.
      return `PARTIAL ${path}  (${printable(partialDetail(record))}${reused}${selfTestNote(record)})`;
    case 'unsafe':
      return `THREAT ${path}  (${printable(withFindings(record))}${reused}${quarantineNote(record)})`;
    case 'allowed':
      // Judged unsafe by the engine; the user allowed every finding's detection name.
      if (record.allowedBy === 'name') return `ALLOWED ${path}  (${printable(withFindings(record))}; detection allowed by you${reused})`;
      // Judged unsafe by the engine; the user allowed exactly this content earlier.
      return `ALLOWED ${path}  (${printable(record.detailed ?? 'unsafe')}; allowed by you${reused})`;
    case 'skipped':
      return `SKIP   ${path}  (${printable(record.error?.message ?? 'skipped')})`;
    case 'pending':
      return `ERROR  ${path}  (${printable(pendingMessage(record))})`;
    default:
      return `ERROR  ${path}  (${printable(record.error?.message ?? 'could not be scanned')})`;
  }
}

/** An unsafe verdict's label with its findings' names (and signature feed): `infected: Win.Test.EICAR_HDB-1`, `infected: X.UNOFFICIAL (feed: URLhaus)`. */
function withFindings(record: ScanRecord): string {
  const names = record.findings.map((finding) => (finding.feed ? `${finding.name} (feed: ${finding.feed})` : findingLabel(finding))).join(', ');
  return names ? `${record.detailed ?? 'unsafe'}: ${names}` : (record.detailed ?? 'unsafe');
}

/** What a `BASIC` line says: what looked at the file, and that it is not a full scan. */
export const BASIC_ONLY_DETAIL = 'basic checks only (EICAR test file only); not a full scan: ClamAV was not available';

/** What a `PARTIAL` line says: `scanned in part: <reason>; <reason>` (shared/scans/coverage.ts). */
export function partialDetail(record: Pick<ScanRecord, 'findings'>): string {
  const reasons = coverageReasons(record.findings).map((reason) => COVERAGE_REASON_TEXT[reason]);
  return `scanned in part: ${reasons.join('; ')}`;
}

/** What a line adds when the verdict was given while the engine's self-test failed (verdictOf says why it stays CLEAN). */
export const SELF_TEST_FAILED_NOTE = 'given while the self-test failed: this engine did not detect the EICAR test file';

function selfTestNote(record: ScanRecord): string {
  return isGivenWhileSelfTestFailed(record) ? `; ${SELF_TEST_FAILED_NOTE}` : '';
}

/** What the core does with the file (the move itself finishes after the line is printed). */
function quarantineNote(record: ScanRecord): string {
  if (record.disposition === 'quarantine_pending') return '; moving it to quarantine';
  if (record.disposition === 'quarantined') return '; moved to quarantine';
  return '';
}

/** A record still waiting when the CLI gives up on it (no key, service unreachable). */
function pendingMessage(record: ScanRecord): string {
  switch (record.pendingReason) {
    case 'awaiting_api_key':
      return 'not scanned: the service rejected the API key; set a valid key (VERDICT_API_KEY or the keychain) and run again';
    case 'backend_unavailable':
      return 'not scanned: the scanning service could not be started or reached; see the log, then run again';
    case 'service_unreachable':
      return 'not scanned yet: the service is unreachable; it stays queued and is retried on the next run';
    case 'retrying':
      return 'not scanned yet: the service keeps failing; it stays queued and is retried on the next run';
    default:
      return `not scanned yet (${record.status}${record.pendingReason ? `, ${record.pendingReason}` : ''})`;
  }
}

export interface JsonLine {
  /** The real name; a name that is not UTF-8 with each such byte as `⟨0xFF⟩` (every string of the line is valid text). */
  path: string;
  /** The base64 of the path's raw bytes, only when it is not UTF-8. */
  pathBytes?: string;
  status: ScanRecord['status'];
  verdict: ReturnType<typeof verdictOf>;
  safe: boolean | null;
  detailed: string | null;
  findings: ScanRecord['findings'];
  sha256: string | null;
  scanId: string | null;
  externalReferenceId: string;
  reusedFromId: string | null;
  /** How the verdict was reused (`content` or `unchanged`, see ScanRecord.reuseKind); null when it was not, or not said. */
  reuseKind: 'content' | 'unchanged' | null;
  error: ScanRecord['error'];
  pendingReason: string | null;
  /** What was done about a threat (see ScanRecord.disposition). */
  disposition: ScanRecord['disposition'] | null;
  /** Why an allowed verdict is allowed: `content` (its sha256) or `name` (every finding's detection name); null otherwise. */
  allowedBy: ScanRecord['allowedBy'] | null;
  /** Who made the verdict: `{name: "clamav" | "builtin", version, signatures}`; null when not known (or no verdict). */
  engine: EngineIdentity | null;
  /** `failed`: the verdict was given while the engine's self-test failed (it did not detect the EICAR test file); null otherwise. */
  selfTest: 'failed' | null;
  /**
   * A recheck's changed verdict: the scan it replaces, which judged the file clean (its id in the history, and its
   * externalReferenceId and time while that row is kept; a job's clean rows are compacted); null otherwise.
   */
  recheckOf: { id: string; externalReferenceId: string | null; completedAt: string | null } | null;
}

export function toJsonLine(record: ScanRecord): JsonLine {
  const pathBytes = pathBytesOf(record.path);
  return {
    path: record.path,
    ...(pathBytes === undefined ? {} : { pathBytes }),
    status: record.status,
    verdict: verdictOf(record),
    safe: record.safe,
    detailed: record.detailed,
    findings: record.findings,
    sha256: record.sha256,
    scanId: record.serviceScanId,
    externalReferenceId: record.externalReferenceId,
    reusedFromId: record.reusedFromId,
    reuseKind: record.reuseKind ?? null,
    error: record.error,
    pendingReason: record.pendingReason,
    disposition: record.disposition ?? null,
    allowedBy: record.disposition === 'allowed' ? (record.allowedBy ?? 'content') : null,
    engine: record.engine ?? null,
    selfTest: isGivenWhileSelfTestFailed(record) ? 'failed' : null,
    recheckOf: record.recheckOf ?? null,
  };
}

/** `value` as one JSON line: names' raw bytes kept visible, and no control or format character left to reorder the terminal's line. */
export function jsonLineText(value: unknown): string {
  return escapeFormatCharacters(JSON.stringify(value, visibleBytesReplacer));
}

/**
 * JSON.stringify leaves DEL, C1 controls, bidi controls and other format characters raw, so a
 * line read on a terminal could still be reordered. Written as \uXXXX escapes, the parsed
 * values stay exactly the same.
 */
function escapeFormatCharacters(json: string): string {
  return json.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (character) =>
    Array.from({ length: character.length }, (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

export function formatRecord(record: ScanRecord, json: boolean): string {
  return json ? jsonLineText(toJsonLine(record)) : formatPlain(record);
}

/**
 * What a scan's files add up to, first match wins: 1 a threat; 2 a file could not be scanned, was
 * scanned in part (over a scan limit, or encrypted: like a file not scanned, part of it was not) or was skipped; 3 no threat found, but some files were checked with basic checks only (ClamAV was
 * not available): never "all clean"; 0 every file completed clean (or is content the user allowed).
 */
export type ScanExitCode = 0 | 1 | 2 | 3;

export const EXIT_CODES_USAGE = `Exit codes: 0 every file completed clean; 1 a threat was found; 2 a file could not be scanned, was scanned
in part (PARTIAL: over a scan limit, or encrypted) or was skipped (a threat wins); 3 no threat found, but some files were checked with basic checks only (ClamAV was not
available: scan them again with ClamAV)`;

export function exitCodeFor(records: readonly ScanRecord[]): ScanExitCode {
  let code: ScanExitCode = 0;
  for (const record of records) {
    const verdict = verdictOf(record);
    if (verdict === 'unsafe') return 1;
    if (verdict === 'basic-only') code = code === 2 ? 2 : 3;
    // 'partial' too: part of the file was not inspected.
    else if (verdict !== 'safe' && verdict !== 'allowed') code = 2;
  }
  return code;
}

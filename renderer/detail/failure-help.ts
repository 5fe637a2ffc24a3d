// Maps a failed scan's error code to what happened and what to do next, in the
// user's words. Codes come from the core (local checks, the service client) and
// from the service itself (shared/service-contract/errors.ts).
import type { MessageKey } from '../i18n/messages.ts';

export type FailureKind =
  | 'auth'
  | 'tooLarge'
  | 'vanished'
  | 'notRegular'
  | 'unreadable'
  | 'changed'
  | 'network'
  | 'rateLimited'
  | 'timeout'
  | 'engine'
  | 'rejected'
  | 'notService'
  | 'unknown';

const EXACT: Record<string, FailureKind> = {
  unauthorized: 'auth',
  forbidden: 'auth',
  awaiting_api_key: 'auth',
  missing_api_key: 'auth',
  no_api_key: 'auth',
  invalid_api_key: 'auth',
  file_too_large: 'tooLarge',
  too_large: 'tooLarge',
  not_found: 'vanished',
  vanished: 'vanished',
  file_not_found: 'vanished',
  broken_link: 'vanished',
  enoent: 'vanished',
  not_regular_file: 'notRegular',
  not_a_file: 'notRegular',
  is_directory: 'notRegular',
  unreadable: 'unreadable',
  permission_denied: 'unreadable',
  eacces: 'unreadable',
  file_unreadable: 'unreadable',
  read_error: 'unreadable',
  symlink_loop: 'notRegular',
  file_changed: 'changed',
  eperm: 'unreadable',
  ebusy: 'unreadable',
  network: 'network',
  network_error: 'network',
  service_unreachable: 'network',
  unreachable: 'network',
  connection_refused: 'network',
  econnrefused: 'network',
  tls_error: 'network',
  rate_limited: 'rateLimited',
  timeout: 'timeout',
  sync_scan_timeout: 'timeout',
  scan_timeout: 'timeout',
  poll_timeout: 'timeout',
  internal_error: 'engine',
  invalid_request: 'rejected',
  invalid_response: 'rejected',
  bad_response: 'rejected',
  duplicate_external_reference_id: 'rejected',
  service_error: 'rejected',
  // An answer that is not the spec's (an HTML page, the wrong shape): the address leads elsewhere.
  malformed_response: 'notService',
  server_error: 'engine',
};

// Families of codes, by prefix: `engine_unavailable`, `clamd_timeout`, `network_dns`, …
const PREFIXES: [string, FailureKind][] = [
  ['engine', 'engine'],
  ['clamd', 'engine'],
  ['network', 'network'],
  ['service_unreachable', 'network'],
  ['auth', 'auth'],
  ['read', 'unreadable'],
  ['timeout', 'timeout'],
];

export function failureKind(code: string | null | undefined): FailureKind {
  if (!code) return 'unknown';
  const normalized = code.toLowerCase();
  const exact = EXACT[normalized];
  if (exact) return exact;
  for (const [prefix, kind] of PREFIXES) if (normalized.startsWith(prefix)) return kind;
  if (normalized.endsWith('_timeout')) return 'timeout';
  return 'unknown';
}

export function failureHelp(code: string | null | undefined): { kind: FailureKind; reason: MessageKey; next: MessageKey } {
  const kind = failureKind(code);
  return { kind, reason: `failure.${kind}.reason`, next: `failure.${kind}.next` };
}

// Why a scan failed, as the core records it on a `failed` scan and the UI words it:
// the codes, which sentence of a code (the cause) and the parameters each carries.
// The core writes the English sentence (electron/scans/failure-text.ts; the CLIs
// print it), the UI words the same from its catalogues. A failure the service worded
// itself (a failed scan's `error`, an error body's message) carries no parameters:
// the service wrote it in the language Verdict asked for (Content-Language).
import { z } from 'zod';

/** Codes of a path refused at intake (nothing was opened but a regular file, nothing sent). */
export const INTAKE_ERROR_CODES = ['not_found', 'not_regular_file', 'unreadable', 'too_large', 'broken_link', 'symlink_loop', 'invalid_path'] as const;
export type IntakeErrorCode = (typeof INTAKE_ERROR_CODES)[number];

/** What a path that is not a regular file is instead. */
export const FILE_KINDS = ['directory', 'fifo', 'socket', 'character_device', 'block_device', 'other'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** Why the file could not be sent while it was being uploaded (the service client's checks). */
export const UPLOAD_PROBLEMS = ['unreadable', 'not_regular', 'size_changed', 'shorter', 'changed'] as const;
export type UploadProblem = (typeof UPLOAD_PROBLEMS)[number];

/** Every code the core itself records on a failed scan (the service's own codes come on top). */
export const SCAN_FAILURE_CODES = [
  ...INTAKE_ERROR_CODES,
  'read_error',
  'read_failed',
  'file_changed',
  'file_unreadable',
  'internal_error',
  'scan_lost',
  'file_too_large',
  'invalid_request',
  'malformed_response',
  'scan_failed',
] as const;
export type ScanFailureCode = (typeof SCAN_FAILURE_CODES)[number];

const text = z.string();
const bytes = z.number().int().nonnegative();
const upload = {
  upload: z.enum(UPLOAD_PROBLEMS),
  /** For `unreadable`: the system's error code (ENOENT, EACCES, …). */
  errno: text.optional(),
  /** For `size_changed`: the size at intake and the size found, in bytes. */
  before: bytes.optional(),
  after: bytes.optional(),
};

/**
 * Each cause: the code it is recorded under and its parameters. `path` is the file or
 * folder concerned, `detail` text the system or the service gave (shown as it is),
 * `operation` a request like `POST /file-scans`. Sizes are in bytes.
 */
export const SCAN_FAILURES = {
  // Intake (electron/intake/)
  check_failed: { code: 'unreadable', params: { path: text, detail: text } },
  empty_path: { code: 'invalid_path', params: {} },
  path_too_long: { code: 'invalid_path', params: { path: text } },
  not_regular: { code: 'not_regular_file', params: { path: text, kind: z.enum(FILE_KINDS) } },
  over_limit: { code: 'too_large', params: { path: text, size: bytes, limit: bytes } },
  no_such_path: { code: 'not_found', params: { path: text } },
  vanished_before_open: { code: 'not_found', params: { path: text } },
  folder_in_path_denied: { code: 'unreadable', params: { path: text } },
  read_denied: { code: 'unreadable', params: { path: text } },
  open_failed: { code: 'unreadable', params: { path: text, detail: text } },
  loop_in_path: { code: 'symlink_loop', params: { path: text } },
  link_loop: { code: 'symlink_loop', params: { path: text } },
  links_back: { code: 'symlink_loop', params: { path: text, folder: text } },
  broken_link: { code: 'broken_link', params: { path: text, target: text } },
  broken_link_unknown_target: { code: 'broken_link', params: { path: text } },
  folder_denied: { code: 'unreadable', params: { path: text } },
  folder_vanished: { code: 'not_found', params: { path: text } },
  folder_unreadable: { code: 'unreadable', params: { path: text, detail: text } },
  // The pipeline, reading a queued file (electron/scans/failures.ts)
  gone: { code: 'not_found', params: {} },
  permission_denied: { code: 'unreadable', params: {} },
  symlink_loop: { code: 'symlink_loop', params: {} },
  is_folder: { code: 'not_regular_file', params: {} },
  only_regular: { code: 'not_regular_file', params: {} },
  disk_error: { code: 'read_error', params: {} },
  read_failed: { code: 'read_failed', params: { path: text, detail: text } },
  reopen_failed: { code: 'read_failed', params: { path: text, detail: text } },
  replaced: { code: 'file_changed', params: { path: text } },
  kept_changing: { code: 'file_changed', params: {} },
  /** Kept changing, the last time while it was being sent (what the upload found). */
  kept_changing_upload: { code: 'file_changed', params: upload },
  /** Kept changing, the last time replaced by another file. */
  kept_changing_replaced: { code: 'file_changed', params: { path: text } },
  changed_during_upload: { code: 'file_changed', params: {} },
  upload_problem: { code: 'file_unreadable', params: upload },
  over_service_limit: { code: 'too_large', params: { size: bytes, limit: bytes } },
  unexpected: { code: 'internal_error', params: { detail: text } },
  scan_lost: { code: 'scan_lost', params: {} },
  // The service client (electron/service-client/), where the service gave no message of its own
  http_not_found: { code: 'not_found', params: { operation: text } },
  http_too_large: { code: 'file_too_large', params: { syncLimit: bytes, asyncLimit: bytes } },
  http_refused: { code: 'invalid_request', params: { status: z.number().int() } },
  http_redirect: { code: 'malformed_response', params: { operation: text, status: z.number().int() } },
  http_unexpected: { code: 'malformed_response', params: { operation: text, status: z.number().int() } },
  not_http: { code: 'malformed_response', params: { operation: text, detail: text } },
  answer_not_understood: { code: 'malformed_response', params: { operation: text, detail: text } },
  answer_wrong_shape: { code: 'malformed_response', params: { operation: text, detail: text } },
  answer_inconsistent: { code: 'malformed_response', params: { operation: text, detail: text } },
  polling_failed: { code: 'malformed_response', params: {} },
  bad_reference: { code: 'invalid_request', params: { detail: text } },
  bad_base_url: { code: 'invalid_request', params: {} },
  no_scan_id: { code: 'invalid_request', params: {} },
  /** The service said `failed` without an error of its own. */
  scan_failed: { code: 'scan_failed', params: {} },
} as const satisfies Record<string, { code: ScanFailureCode; params: z.ZodRawShape }>;

export type ScanFailureCause = keyof typeof SCAN_FAILURES;
export const SCAN_FAILURE_CAUSES = Object.keys(SCAN_FAILURES) as ScanFailureCause[];

/** Set when the pipeline gave up after several unclear answers (the English sentence ends "(gave up after N attempts)"). */
const attempts = z.number().int().positive().optional();

/** A failed scan's `params`: the cause, what its sentence names, and how many attempts were made when it gave up. */
export type ScanFailureParams = {
  [C in ScanFailureCause]: { cause: C; attempts?: number } & ParamsOf<(typeof SCAN_FAILURES)[C]['params']>;
}[ScanFailureCause];
type ParamsOf<S extends z.ZodRawShape> = keyof S extends never ? unknown : z.infer<z.ZodObject<S>>;

const variants = SCAN_FAILURE_CAUSES.map((cause) => z.object({ cause: z.literal(cause), attempts, ...SCAN_FAILURES[cause].params }));
export const scanFailureParamsSchema = z.discriminatedUnion('cause', variants as [(typeof variants)[number], ...(typeof variants)[number][]]) as unknown as z.ZodType<ScanFailureParams>;

/** The code a failure of this cause is recorded under. */
export const failureCode = (cause: ScanFailureCause): ScanFailureCode => SCAN_FAILURES[cause].code;

/**
 * A size in MB (1 MB = 1,048,576 bytes, as in the service's limits): whole numbers as
 * they are, others with one decimal, so 100 MB + 1 byte reads "100.0 MB", not "100 MB".
 */
export function megabytes(size: number, locale: 'en' | 'de' = 'en'): string {
  const value = size / (1024 * 1024);
  const number = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${locale === 'de' ? number.replace('.', ',') : number} MB`;
}

/** A byte count with the locale's grouping ("104,857,601" / "104.857.601"). */
export const byteCount = (size: number, locale: 'en' | 'de' = 'en'): string => new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US').format(size);

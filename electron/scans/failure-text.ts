// The core's English sentence for each cause of a failed scan (shared/scans/failure.ts):
// one place, so the intake, the pipeline and the service client record the same
// words the CLIs print, and the UI's English catalogue can be checked against them.
import { byteCount, failureCode, megabytes, type FileKind, type ScanFailureParams, type UploadProblem } from '../../shared/scans/failure.ts';
import type { RecordError } from '../../shared/scans/record.ts';

const KIND_NAMES: Record<FileKind, string> = {
  directory: 'a folder',
  fifo: 'a named pipe (FIFO)',
  socket: 'a socket',
  character_device: 'a character device',
  block_device: 'a block device',
  other: 'something else',
};

/** What the system's error code means for reading a file (the upload's own wording). */
const READ_ERRNO: Record<string, string> = {
  ENOENT: 'it no longer exists',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ELOOP: 'too many symbolic links',
};

/** A failed scan's error: the cause's code, its English sentence and the parameters the UI words it from. */
export function scanFailure(params: ScanFailureParams): RecordError & { params: ScanFailureParams } {
  return { code: failureCode(params.cause), message: describeFailure(params), params };
}

/** The same failure after `attempts` tries: the pipeline gave up on it. */
export function gaveUp(error: RecordError, attempts: number): RecordError {
  const message = `${error.message} (gave up after ${attempts} attempts)`;
  return error.params ? { ...error, message, params: { ...error.params, attempts } } : { ...error, message };
}

/** The English sentence of a failure (with "(gave up after N attempts)" when it says so). */
export function describeFailure(params: ScanFailureParams): string {
  const sentence = sentenceOf(params);
  return params.attempts === undefined ? sentence : `${sentence} (gave up after ${params.attempts} attempts)`;
}

/** What went wrong while the file was being sent. */
export function describeUpload(problem: { upload: UploadProblem; errno?: string | undefined; before?: number | undefined; after?: number | undefined }): string {
  switch (problem.upload) {
    case 'unreadable':
      return `The file could not be read (${(problem.errno && READ_ERRNO[problem.errno]) ?? problem.errno ?? 'EIO'}).`;
    case 'not_regular':
      return 'The path is not a regular file.';
    case 'size_changed':
      return problem.before === undefined || problem.after === undefined
        ? 'The file changed since it was queued.'
        : `The file changed since it was queued (size ${byteCount(problem.before)} → ${byteCount(problem.after)} bytes).`;
    case 'shorter':
      return 'The file changed while it was being sent (it became shorter).';
    case 'changed':
      return 'The file changed while it was being sent.';
  }
}

const KEPT_CHANGING = 'The file kept changing while Verdict read it. Scan it again once it is complete.';

function sentenceOf(p: ScanFailureParams): string {
  switch (p.cause) {
    case 'check_failed':
      return `${p.path} could not be checked: ${p.detail}`;
    case 'empty_path':
      return 'An empty path or one with a NUL character cannot be scanned.';
    case 'path_too_long':
      return `The path is too long to open: ${p.path}`;
    case 'not_regular':
      return `${p.path} is ${KIND_NAMES[p.kind]}, not a regular file; it was not opened.`;
    case 'over_limit':
      return (
        `${p.path} is ${megabytes(p.size)} (${byteCount(p.size)} bytes), over the ${megabytes(p.limit)} limit ` +
        `(${byteCount(p.limit)} bytes); it was not sent.`
      );
    case 'no_such_path':
      return `There is no file or folder at ${p.path}.`;
    case 'vanished_before_open':
      return `${p.path} disappeared before it could be opened.`;
    case 'folder_in_path_denied':
      return `${p.path} cannot be reached: permission denied on a folder in its path.`;
    case 'read_denied':
      return `${p.path} cannot be read: permission denied.`;
    case 'open_failed':
      return `${p.path} cannot be opened: ${p.detail}`;
    case 'loop_in_path':
      return `${p.path} cannot be reached: a symbolic link in its path leads back to itself.`;
    case 'link_loop':
      return `${p.path} is a symbolic link loop: following it leads back to itself.`;
    case 'links_back':
      return `${p.path} links back to a folder that contains it (${p.folder}); it was not expanded again.`;
    case 'broken_link':
      return `${p.path} is a symbolic link to ${p.target} that does not exist.`;
    case 'broken_link_unknown_target':
      return `${p.path} is a symbolic link to a path that does not exist.`;
    case 'folder_denied':
      return `The folder ${p.path} cannot be opened: permission denied.`;
    case 'folder_vanished':
      return `The folder ${p.path} disappeared while it was being read.`;
    case 'folder_unreadable':
      return `The folder ${p.path} could not be read: ${p.detail}`;
    case 'gone':
      return 'The file is no longer there (moved or deleted). Add it again to scan it.';
    case 'permission_denied':
      return 'Verdict is not allowed to read this file (permission denied). Give your user read access and scan it again.';
    case 'symlink_loop':
      return 'The path is a symbolic link loop; there is no file to scan.';
    case 'is_folder':
      return 'This is a folder, not a file.';
    case 'only_regular':
      return 'Only regular files are scanned (not folders, devices, pipes or sockets).';
    case 'disk_error':
      return 'The disk reported an input/output error while reading the file.';
    case 'read_failed':
      return `${p.path} could not be read: ${p.detail} Check the disk and scan it again.`;
    case 'reopen_failed':
      return `${p.path} could not be opened: ${p.detail} Check the disk and scan it again.`;
    case 'replaced':
      return `${p.path} was replaced by another file after it was queued.`;
    case 'kept_changing':
      return KEPT_CHANGING;
    case 'kept_changing_upload':
      return `${KEPT_CHANGING} (${describeUpload(p)})`;
    case 'kept_changing_replaced':
      return `${KEPT_CHANGING} (${p.path} was replaced by another file after it was queued.)`;
    case 'changed_during_upload':
      return 'The file changed while it was being uploaded: the service scanned other content than Verdict had read, so its verdict is not used. Scan it again.';
    case 'upload_problem':
      return describeUpload(p);
    case 'over_service_limit':
      return `The file is ${megabytes(p.size)}; the service accepts files up to ${megabytes(p.limit)}. Nothing was sent.`;
    case 'unexpected':
      return `Verdict could not handle this file: ${p.detail}`;
    case 'scan_lost':
      return 'The service keeps losing this scan (its id is unknown there). Scan the file again.';
    case 'http_not_found':
      return `The service has no such resource (${p.operation}).`;
    case 'http_too_large':
      return `The file is larger than the service accepts (limits: ${megabytes(p.syncLimit)} for sync, ${megabytes(p.asyncLimit)} for async scans).`;
    case 'http_refused':
      return `The service refused the request (HTTP ${p.status}).`;
    case 'http_redirect':
      return `The service answered ${p.operation} with a redirect (HTTP ${p.status}); check the base URL.`;
    case 'http_unexpected':
      return `The service answered ${p.operation} with an unexpected HTTP ${p.status}.`;
    case 'not_http':
      return `The service's answer to ${p.operation} is not valid HTTP (${p.detail}).`;
    case 'answer_not_understood':
      return `The service's answer to ${p.operation} was not understood: ${p.detail}.`;
    case 'answer_wrong_shape':
      return `The service's answer to ${p.operation} has an unexpected shape: ${p.detail}.`;
    case 'answer_inconsistent':
      return `The service's answer to ${p.operation} is inconsistent: ${p.detail}.`;
    case 'polling_failed':
      return 'Polling failed unexpectedly.';
    case 'bad_reference':
      return `The external reference is not valid: ${p.detail}.`;
    case 'bad_base_url':
      return 'The service base URL must be an http(s) URL without credentials, query or fragment.';
    case 'no_scan_id':
      return 'A scan id is required.';
    case 'scan_failed':
      return 'The service could not scan this file.';
  }
}

// A failed scan's specific line worded by the renderer from the cause and parameters
// the core recorded: for every cause (shared/scans/failure.ts) the core's own
// scanFailure() gives the sentence, English from the catalogue reads exactly as
// that sentence, German is German and names the same path, detail or request; a
// record without parameters (older history, or the service's own words) keeps its text.
import { describe, expect, it } from 'vitest';
import { describeUpload, gaveUp, scanFailure } from '../../electron/scans/failure-text.ts';
import { failureText, failureWords } from '../../renderer/detail/failure-text.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import {
  FILE_KINDS,
  SCAN_FAILURE_CAUSES,
  SCAN_FAILURE_CODES,
  UPLOAD_PROBLEMS,
  failureCode,
  type ScanFailureCause,
  type ScanFailureParams,
} from '../../shared/scans/failure.ts';

const en = translator('en');
const de = translator('de');
const MB = 1024 * 1024;
const file = '/home/u/Downloads/report.pdf';

/** One failure of every cause, as the core records it (the mapped type makes the list complete). */
const samples: { [C in ScanFailureCause]: Extract<ScanFailureParams, { cause: C }> } = {
  check_failed: { cause: 'check_failed', path: file, detail: 'EBADF: bad file descriptor, fstat' },
  empty_path: { cause: 'empty_path' },
  path_too_long: { cause: 'path_too_long', path: `/tmp/${'x'.repeat(300)}` },
  not_regular: { cause: 'not_regular', path: '/tmp/a-fifo', kind: 'fifo' },
  over_limit: { cause: 'over_limit', path: file, size: 100 * MB + 1, limit: 100 * MB },
  no_such_path: { cause: 'no_such_path', path: file },
  vanished_before_open: { cause: 'vanished_before_open', path: file },
  folder_in_path_denied: { cause: 'folder_in_path_denied', path: file },
  read_denied: { cause: 'read_denied', path: file },
  open_failed: { cause: 'open_failed', path: file, detail: 'EMFILE: too many open files' },
  loop_in_path: { cause: 'loop_in_path', path: '/tmp/loop/a' },
  link_loop: { cause: 'link_loop', path: '/tmp/loop' },
  links_back: { cause: 'links_back', path: '/tmp/tree/sub/up', folder: '/tmp/tree' },
  broken_link: { cause: 'broken_link', path: '/tmp/link', target: '/tmp/gone' },
  broken_link_unknown_target: { cause: 'broken_link_unknown_target', path: '/tmp/link' },
  folder_denied: { cause: 'folder_denied', path: '/srv/private' },
  folder_vanished: { cause: 'folder_vanished', path: '/srv/tmp' },
  folder_unreadable: { cause: 'folder_unreadable', path: '/srv/broken', detail: 'EIO: i/o error, scandir' },
  gone: { cause: 'gone' },
  permission_denied: { cause: 'permission_denied' },
  symlink_loop: { cause: 'symlink_loop' },
  is_folder: { cause: 'is_folder' },
  only_regular: { cause: 'only_regular' },
  disk_error: { cause: 'disk_error' },
  read_failed: { cause: 'read_failed', path: file, detail: 'EIO: i/o error, read' },
  reopen_failed: { cause: 'reopen_failed', path: file, detail: 'EMFILE: too many open files, open' },
  replaced: { cause: 'replaced', path: file },
  kept_changing: { cause: 'kept_changing' },
  kept_changing_upload: { cause: 'kept_changing_upload', upload: 'size_changed', before: 4096, after: 1_048_576 },
  kept_changing_replaced: { cause: 'kept_changing_replaced', path: file },
  changed_during_upload: { cause: 'changed_during_upload' },
  upload_problem: { cause: 'upload_problem', upload: 'unreadable', errno: 'EACCES' },
  over_service_limit: { cause: 'over_service_limit', size: 200 * MB, limit: 100 * MB },
  unexpected: { cause: 'unexpected', detail: 'Cannot read properties of undefined' },
  scan_lost: { cause: 'scan_lost' },
  http_not_found: { cause: 'http_not_found', operation: 'POST /file-scans' },
  http_too_large: { cause: 'http_too_large', syncLimit: 10 * MB, asyncLimit: 100 * MB },
  http_refused: { cause: 'http_refused', status: 422 },
  http_redirect: { cause: 'http_redirect', operation: 'POST /file-scans/sync', status: 302 },
  http_unexpected: { cause: 'http_unexpected', operation: 'GET /file-scans/{id}', status: 204 },
  not_http: { cause: 'not_http', operation: 'POST /file-scans', detail: 'HPE_INVALID_CONSTANT' },
  answer_not_understood: { cause: 'answer_not_understood', operation: 'POST /file-scans', detail: 'the body is not JSON' },
  answer_wrong_shape: { cause: 'answer_wrong_shape', operation: 'GET /file-scans/{id}', detail: 'status: expected one of processing, completed, failed' },
  answer_inconsistent: { cause: 'answer_inconsistent', operation: 'POST /file-scans', detail: 'external_reference_id differs from the one sent' },
  polling_failed: { cause: 'polling_failed' },
  bad_reference: { cause: 'bad_reference', detail: 'at most 255 characters' },
  bad_base_url: { cause: 'bad_base_url' },
  no_scan_id: { cause: 'no_scan_id' },
  scan_failed: { cause: 'scan_failed' },
};

/** The text values a sentence names (shown as they are in both languages). */
const named = (params: ScanFailureParams): string[] =>
  Object.entries(params).flatMap(([name, value]) => (['path', 'folder', 'target', 'detail', 'operation'].includes(name) ? [String(value)] : []));

describe('failed scans worded from their parameters', () => {
  it('every code the core records has a cause, and every cause is worded in English exactly as the core wrote it and in German', () => {
    expect(Object.keys(samples).sort()).toEqual([...SCAN_FAILURE_CAUSES].sort());
    expect(new Set(SCAN_FAILURE_CAUSES.map(failureCode))).toEqual(new Set(SCAN_FAILURE_CODES));
    const germans = new Set<string>();
    for (const params of Object.values(samples)) {
      const error = scanFailure(params);
      expect(error.code).toBe(failureCode(params.cause));
      expect(error.params).toBe(params);
      expect(failureText(en, error), params.cause).toBe(error.message);
      const german = failureText(de, error);
      expect(german, params.cause).not.toBe(error.message);
      for (const value of named(params)) expect(german, params.cause).toContain(value);
      // Every placeholder filled (a request like GET /file-scans/{id} may show braces of its own).
      expect(named(params).reduce((rest, value) => rest.replace(value, ''), german), params.cause).not.toMatch(/\{\w+\}/);
      // Each cause has wording of its own, not one catch-all sentence.
      expect(germans.has(german), german).toBe(false);
      germans.add(german);
    }
  });

  it('every kind of non-regular file, and every upload problem (with and without what the upload found), in both languages', () => {
    const variants: ScanFailureParams[] = [
      ...FILE_KINDS.map((kind): ScanFailureParams => ({ cause: 'not_regular', path: '/dev/x', kind })),
      ...UPLOAD_PROBLEMS.flatMap((upload): ScanFailureParams[] => [
        { cause: 'upload_problem', upload },
        { cause: 'kept_changing_upload', upload },
      ]),
      ...['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ELOOP', 'EIO'].map((errno): ScanFailureParams => ({ cause: 'upload_problem', upload: 'unreadable', errno })),
      { cause: 'upload_problem', upload: 'size_changed', before: 10, after: 12 },
    ];
    const germans = new Set<string>();
    for (const params of variants) {
      const error = scanFailure(params);
      expect(failureText(en, error), error.message).toBe(error.message);
      const german = failureText(de, error);
      expect(german, error.message).not.toBe(error.message);
      germans.add(german);
    }
    // EACCES and EPERM read alike, and so do EIO and no code at all; every other variant reads differently.
    expect(germans.size).toBe(variants.length - 2);
    expect(describeUpload({ upload: 'unreadable', errno: 'EIO' })).toBe('The file could not be read (EIO).');
  });

  it('German wording with German numbers: a file over 100 MB, a FIFO, an answer the pipeline gave up on', () => {
    expect(failureText(de, scanFailure(samples.over_limit))).toBe(
      `${file} ist 100,0 MB groß (104.857.601 Bytes) und damit über der Grenze von 100 MB (104.857.600 Bytes); sie wurde nicht gesendet.`,
    );
    expect(scanFailure(samples.over_limit).message).toBe(`${file} is 100.0 MB (104,857,601 bytes), over the 100 MB limit (104,857,600 bytes); it was not sent.`);
    expect(failureText(de, scanFailure(samples.not_regular))).toBe('/tmp/a-fifo ist eine benannte Pipe (FIFO) und keine normale Datei; Verdict hat es nicht geöffnet.');
    const given = gaveUp(scanFailure(samples.answer_wrong_shape), 3);
    expect(given.message).toBe(`${scanFailure(samples.answer_wrong_shape).message} (gave up after 3 attempts)`);
    expect(failureText(en, given)).toBe(given.message);
    expect(failureText(de, given)).toBe(
      'Die Antwort des Dienstes auf GET /file-scans/{id} hat eine unerwartete Form: status: expected one of processing, completed, failed. (nach 3 Versuchen aufgegeben)',
    );
    expect(failureText(de, scanFailure(samples.kept_changing_upload))).toMatch(/\(Größe 4\.096 → 1\.048\.576 Bytes\)\.\)$/);
  });

  it('keeps the stored sentence for a record without parameters, the service’s own words, or parameters that do not fit the code', () => {
    const old = { code: 'too_large', message: '/x is 200.0 MB (209,715,200 bytes), over the 100 MB limit (104,857,600 bytes); it was not sent.' };
    expect(failureText(de, old)).toBe(old.message);
    const service = { code: 'engine_unavailable', message: 'Der Scan konnte nicht abgeschlossen werden: die Scan-Engine ist nicht erreichbar.' };
    expect(failureText(en, service)).toBe(service.message);
    expect(failureText(de, { code: 'not_found', message: 'moved', params: { cause: 'over_limit', path: '/x', size: 1, limit: 1 } })).toBe('moved');
    expect(failureText(de, { code: 'too_large', message: 'bad', params: { cause: 'over_limit', path: '/x' } })).toBe('bad');
    expect(failureText(de, { code: 'too_large', message: 'odd', params: { cause: 'no-such-cause' } })).toBe('odd');
    // The gave-up suffix on a sentence without parameters stays the core's English too.
    expect(failureText(de, gaveUp({ code: 'malformed_response', message: 'Der Dienst sagte etwas.' }, 3))).toBe('Der Dienst sagte etwas. (gave up after 3 attempts)');
  });

  it('names the words a line quotes from the system or a service (English, marked in the page), and only those', () => {
    for (const params of Object.values(samples)) {
      const error = scanFailure(params);
      const detail = 'detail' in params ? [params.detail] : [];
      expect(failureWords(error), params.cause).toEqual(detail);
      for (const words of failureWords(error)) expect(failureText(de, error), params.cause).toContain(words);
    }
    // An errno the page words itself is not quoted; one it does not know is.
    expect(failureWords(scanFailure({ cause: 'upload_problem', upload: 'unreadable', errno: 'EACCES' }))).toEqual([]);
    expect(failureWords(scanFailure({ cause: 'upload_problem', upload: 'unreadable', errno: 'EIO' }))).toEqual(['EIO']);
    // The service's own words, without parameters: its language is not known, so nothing is marked.
    expect(failureWords({ code: 'scan_failed', message: 'Le fichier est corrompu' })).toEqual([]);
  });
});

// "Compute MD5 and SHA-1" (issue 26 §3): a local scan records sha256 only, so the detail panel
// asks for the other two. They are computed here, in the main process, in one read of the file
// at the record's path, and given only if that read has the sha256 and size the scan recorded:
// the digests are then of the very bytes that were scanned. A file changed or gone says so.
import type { FileDigestsOnRequest } from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { ALL_DIGESTS, fingerprintFile, FingerprintError } from '../fingerprint/fingerprint.ts';
import type { History } from '../history/history.ts';
import type { Guard } from './core-context.ts';

export const DIGEST_ERRORS = {
  notFound: 'not_found',
  notScanned: 'digests_not_scanned',
  gone: 'file_gone',
  changed: 'file_changed',
  unreadable: 'file_unreadable',
} as const;

export function digestsApi(deps: { guard: Guard; history: Pick<History, 'get'> }): { digests(id: string): Promise<Result<FileDigestsOnRequest>> } {
  return {
    digests: (id) =>
      deps.guard('Computing MD5 and SHA-1', async () => {
        if (typeof id !== 'string' || id.length === 0) return err('invalid_request', 'Expected a scan id.');
        const record = deps.history.get(id);
        if (!record) return err(DIGEST_ERRORS.notFound, 'There is no such scan in the history.');
        if (record.sha256 === null || record.size === null) {
          return err(DIGEST_ERRORS.notScanned, 'This file was never read by a scan, so there is nothing to compare its digests with.');
        }
        let read;
        try {
          read = await fingerprintFile(record.path, { digests: ALL_DIGESTS });
        } catch (error) {
          const code = error instanceof FingerprintError ? error.code : 'read_failed';
          if (code === 'not_found' || code === 'not_regular_file') return err(DIGEST_ERRORS.gone, 'The file is no longer where it was scanned.', { path: record.path });
          return err(DIGEST_ERRORS.unreadable, `The file could not be read: ${(error as Error).message}`, { path: record.path });
        }
        if (read.sha256 !== record.sha256 || read.bytesRead !== record.size) {
          return err(DIGEST_ERRORS.changed, 'The file has changed since it was scanned: its digests now would not be those of the file scanned.', { path: record.path });
        }
        return ok({ md5: read.md5 ?? '', sha1: read.sha1 ?? '', sha256: read.sha256 });
      }),
  };
}

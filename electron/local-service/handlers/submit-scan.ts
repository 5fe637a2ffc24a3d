// POST /file-scans (async: 202 with the seven submission fields) and
// POST /file-scans/sync (200 with the terminal scan, or 408 with file_scan_id
// when the window passes first; the scan carries on regardless).
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import type { ExecutionMode } from '../../../shared/service-contract/scan.ts';
import { isoNow } from '../clock.ts';
import { HttpError } from '../http/http-error.ts';
import { allowBody, sendJson } from '../http/respond.ts';
import { toAsyncSubmission, toScan } from '../scanning/scan-view.ts';
import type { StoredScan } from '../store/scan-store.ts';
import { receiveSubmission } from '../upload/receive-submission.ts';
import type { RequestContext, ServiceParts } from './context.ts';

export async function submitScan(ctx: RequestContext, parts: ServiceParts, mode: ExecutionMode): Promise<void> {
  const received = await receiveSubmission(ctx.req, {
    mode,
    maxFileSize: mode === 'sync' ? MAX_SYNC_FILE_SIZE : MAX_ASYNC_FILE_SIZE,
    incomingDir: parts.layout.incomingDir,
    beforeBody: () => allowBody(ctx.req, ctx.res),
  });

  const id = randomUUID();
  const upload = parts.layout.uploadFileOf(id);
  let scan: StoredScan | null;
  try {
    const fileName = received.attributes.file_name ?? received.partFileName;
    if (!fileName) throw new HttpError('invalid_request', { key: 'missingFileName' });
    // The upload is in place before the row exists, so every processing scan has its file (see recovery.ts).
    await rename(received.tempFile, upload);
    const inserted = parts.store.insert({
      id,
      integrationId: ctx.integrationId,
      externalReferenceId: received.attributes.external_reference_id ?? null,
      executionMode: mode,
      fileName,
      fileSize: received.size,
      fileType: received.fileType,
      fileHash: received.hash,
      submittedAt: isoNow(),
    });
    if (inserted === 'duplicate') throw new HttpError('duplicate_external_reference_id', { key: 'duplicateReference' });
    scan = parts.store.get(id);
    if (!scan) throw new Error('a scan vanished right after it was stored');
  } catch (error) {
    await rm(received.tempFile, { force: true });
    await rm(upload, { force: true });
    throw error;
  }

  parts.onSubmitted(toScan(scan, 'en'));
  // Listen before scanning starts, so a very fast scan cannot slip past.
  const terminal = mode === 'sync' ? parts.runner.waitForTerminal(id, parts.syncWindowMs) : null;
  parts.runner.enqueue(id);

  if (!terminal) {
    sendJson(ctx.res, 202, toAsyncSubmission(scan), ctx.language, { location: `/file-scans/${id}` });
    return;
  }
  const finished = await terminal;
  if (!finished) {
    throw new HttpError(
      'sync_scan_timeout',
      { key: 'syncScanTimeout', params: { seconds: Math.round((parts.syncWindowMs / 1000) * 10) / 10 } },
      { extra: { file_scan_id: id }, headers: { location: `/file-scans/${id}` } },
    );
  }
  sendJson(ctx.res, 200, toScan(finished, ctx.language), ctx.language);
}

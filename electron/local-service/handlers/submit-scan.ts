// POST /file-scans (async: 202 with the seven submission fields) and
// POST /file-scans/sync (200 with the terminal scan, or 408 with file_scan_id
// when the window passes first; the scan carries on regardless).
//
// Where the upload lives while it waits for the engine:
// - async: always in uploads/<id> before the 202 (an accepted scan survives a
//   crash: recovery scans it again on start);
// - sync, small (received into memory): only in memory, scanned from there. Nobody
//   has been told about the scan until its answer, and the client still has the
//   file: if the service stops first, recovery forgets the scan and the client's
//   retry (same reference) starts afresh. Should the sync window pass first, the
//   file is written before the 408, from which point the scan must survive;
// - sync, large (streamed to a temporary file): moved into uploads/<id>.
// Writing a small file costs more than everything else the service does for it
// (~0.8 ms of CPU on this machine's ext4, see notes/throughput.md), and a sync
// answer follows within milliseconds.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import type { ExecutionMode } from '../../../shared/service-contract/scan.ts';
import { isoNow } from '../clock.ts';
import { HttpError } from '../http/http-error.ts';
import { allowBody, sendJson } from '../http/respond.ts';
import { toAsyncSubmission, toScan } from '../scanning/scan-view.ts';
import { processingScan, type NewScan, type StoredScan } from '../store/scan-store.ts';
import { receiveSubmission } from '../upload/receive-submission.ts';
import type { RequestContext, ServiceParts } from './context.ts';

export async function submitScan(ctx: RequestContext, parts: ServiceParts, mode: ExecutionMode): Promise<void> {
  const received = await receiveSubmission(ctx.req, {
    mode,
    maxFileSize: mode === 'sync' ? MAX_SYNC_FILE_SIZE : MAX_ASYNC_FILE_SIZE,
    incomingDir: parts.layout.incomingDir,
    beforeBody: () => allowBody(ctx.req, ctx.res),
    memory: { budget: parts.uploadMemory },
  });

  const id = randomUUID();
  const upload = parts.layout.uploadFileOf(id);
  const { file } = received;
  // Decided and acted on without an await in between, so the runner's budget cannot change meanwhile.
  const memoryOnly = file.kind === 'memory' && mode === 'sync' && parts.runner.canHold(file.content.length);
  let scan: StoredScan;
  try {
    const fileName = received.attributes.file_name ?? received.partFileName;
    if (!fileName) throw new HttpError('invalid_request', { key: 'missingFileName' });
    // The upload is in place before the row exists, so every processing scan has its file
    // (see recovery.ts), except a small sync one held in memory (see above).
    if (file.kind === 'file') await rename(file.tempFile, upload);
    else if (!memoryOnly) writeUpload(upload, file.content);
    const stored: NewScan = {
      id,
      integrationId: ctx.integrationId,
      externalReferenceId: received.attributes.external_reference_id ?? null,
      executionMode: mode,
      fileName,
      fileSize: received.size,
      fileType: received.fileType,
      fileHash: received.hash,
      submittedAt: isoNow(),
    };
    scan = processingScan(stored);
    // The row and its `processing` webhook event commit together. Without webhooks the insert is its own
    // transaction, but a memory-only sync scan's, which nobody learns of before its verdict, commits with that verdict.
    const { onSubmitted } = parts;
    const inserted = onSubmitted
      ? parts.store.transaction(() => {
          const outcome = parts.store.insert(stored);
          if (outcome === 'inserted') onSubmitted(scan);
          return outcome;
        })
      : memoryOnly
        ? parts.store.insertPending(stored)
        : parts.store.insert(stored);
    if (inserted === 'duplicate') throw new HttpError('duplicate_external_reference_id', { key: 'duplicateReference' });
  } catch (error) {
    if (file.kind === 'file') await rm(file.tempFile, { force: true });
    await rm(upload, { force: true });
    throw error;
  }

  // Listen before scanning starts, so a very fast scan cannot slip past.
  const terminal = mode === 'sync' ? parts.runner.waitForTerminal(id, parts.syncWindowMs, scan) : null;
  // A small upload's bytes go along, so the engine need not read them back from disk.
  const held = parts.runner.enqueue(id, file.kind === 'memory' ? file.content : undefined, {
    basicOnly: received.attributes.basic_checks_only === true,
    stored: scan,
    withoutFile: memoryOnly,
  });
  if (memoryOnly && !held) writeUpload(upload, file.content); // cannot happen (nothing ran since canHold); never scan a missing file

  if (!terminal) {
    sendJson(ctx.res, 202, toAsyncSubmission(scan), ctx.language, { location: `/file-scans/${id}` });
    return;
  }
  const finished = await terminal;
  if (!finished) {
    // From the 408 on the client relies on the scan carrying on, across a restart too. (Not when
    // the service is closing: that wakes the request too, but no answer reaches the client then.)
    if (memoryOnly && !parts.runner.closing && parts.store.get(id)?.status === 'processing') {
      writeUpload(upload, file.content);
      parts.runner.uploadWritten(id);
    }
    // The 408 tells the client the scan exists (closing: no answer reaches it, and the database may be closed).
    if (!parts.runner.closing) parts.store.commit();
    throw new HttpError(
      'sync_scan_timeout',
      { key: 'syncScanTimeout', params: { seconds: Math.round((parts.syncWindowMs / 1000) * 10) / 10 } },
      { extra: { file_scan_id: id }, headers: { location: `/file-scans/${id}` } },
    );
  }
  // Recorded (and so committed) by the runner; nothing is answered before it is committed.
  parts.store.commit();
  sendJson(ctx.res, 200, toScan(finished, ctx.language), ctx.language);
}

/**
 * Small uploads are written synchronously: on this thread it costs the same CPU
 * as the thread pool's three round trips (open, write, close), without their
 * latency, and a file of at most SMALL_UPLOAD_BYTES does not hold the loop long.
 */
function writeUpload(path: string, content: Buffer): void {
  writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
}

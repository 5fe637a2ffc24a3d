// The local engine path (issue 26): the ServicePort of the embedded default hands
// each file to the engine in the service's thread as a message, with no HTTP
// round trip, and turns the engine's answer into the scan the service would have
// answered (scan-view.ts's toScan: the same result, engine identity and worded
// errors, en/de; a file read by its path comes with the digests of what it holds
// after the scan, so a file changed since it was hashed gets no verdict, as with an
// upload, unless clamd scanned by descriptor the very file the app hashed, unchanged). The pipeline, history, reuse and threat response see a service that
// answers every file synchronously.
import { randomUUID } from 'node:crypto';
import type { Language } from '../../shared/service-contract/limits.ts';
import { toScan } from '../local-service/scanning/scan-view.ts';
import type { StoredScan } from '../local-service/store/scan-store.ts';
import type { EngineScanOutcome, EngineScanRequest } from '../local-service/thread/thread-protocol.ts';
import type { ServicePort } from '../scans/ports.ts';
import { ServiceError, wordedServiceError } from '../service-client/service-error.ts';

export interface LocalEnginePortInput {
  label: string;
  scanFile(request: EngineScanRequest, signal: AbortSignal): Promise<EngineScanOutcome>;
  /** The language the scan's error messages are worded in (the settings' choice). */
  language: () => Language;
  /** The embedded service over HTTP: a scan an earlier run left processing there is followed through it. */
  service: Pick<ServicePort, 'follow'>;
}

/**
 * Files at work at once on this path: more than the pipeline's 6 for a remote service. With 6, a file's four
 * hops between threads (to the fingerprint thread and back, to the engine's thread and back) mostly went one
 * file a message; with 16 the messages carry several, and clamd always has commands waiting. A 20,000-file
 * scan, first run, 2 runs each in turn: 6 took 41.0 and 45.6 s, 16 took 38.4 and 41.5 s, 32 and 64 no better
 * than 16 (Verdict's CPU: 31.9 and 34.8 s against 30.2 and 31.9 s).
 */
export const LOCAL_ENGINE_FILES_AT_ONCE = 16;

export function createLocalEnginePort(input: LocalEnginePortInput): ServicePort {
  return {
    label: input.label,
    rescanAfterCrash: true,
    concurrency: LOCAL_ENGINE_FILES_AT_ONCE,
    async submit(file, options) {
      const { signal } = options;
      const submittedAt = new Date().toISOString();
      // Nothing to upload: the engine has the file now (a sync upload shows "processing" from here on).
      options.onProgress(file.size, file.size);
      const request: EngineScanRequest = {
        path: file.path,
        ...(file.content ? { content: file.content } : {}),
        size: file.size,
        reference: options.externalReferenceId,
        basicOnly: options.basicChecksOnly === true,
        // The file the app hashed: an engine that scanned it unchanged spares its second read (or, for bytes in memory, may scan it there).
        ...(file.hashed ? { hashed: file.hashed } : {}),
      };
      let outcome: EngineScanOutcome;
      try {
        outcome = await input.scanFile(request, signal);
      } catch (error) {
        if (signal.aborted) throw new ServiceError('aborted', 'The scan was cancelled.');
        // The engine's thread stopped (it is restarted): as when a service cannot be reached, the file is sent again.
        throw new ServiceError('network', `The built-in engine did not answer: ${(error as Error).message}`, { code: 'ENGINE_THREAD_GONE' });
      }
      if (signal.aborted) throw new ServiceError('aborted', 'The scan was cancelled.');
      if (outcome.unchangedSinceHashed === true) options.onUnchangedSinceHashed?.();
      if (!outcome.ok && outcome.error.code === 'file_unreadable' && !file.content) throw unreadable(outcome.error.detail);
      // Grown or shrunk since it was hashed: as when an upload notices it, the file is read and sent again.
      if (outcome.sizeNow !== undefined && outcome.sizeNow !== file.size) {
        throw wordedServiceError('file_unreadable', { cause: 'upload_problem', upload: 'size_changed', before: file.size, after: outcome.sizeNow });
      }
      return toScan(storedScanOf(file, options, submittedAt, outcome), input.language());
    },
    // A local rescan after a crash is harmless: nothing is looked up, the file is scanned again.
    lookup: async () => null,
    follow: (scanId, signal) => input.service.follow(scanId, signal),
  };
}

function storedScanOf(
  file: { name: string; size: number },
  options: { mode: 'sync' | 'async'; externalReferenceId: string },
  submittedAt: string,
  outcome: EngineScanOutcome,
): StoredScan {
  return {
    // No service keeps it: an id of its own, so the record says which scan made its verdict.
    id: randomUUID(),
    integrationId: '',
    externalReferenceId: options.externalReferenceId,
    status: outcome.ok ? 'completed' : 'failed',
    executionMode: options.mode,
    fileName: file.name,
    fileSize: file.size,
    fileType: outcome.fileType,
    fileHash: outcome.fileHash,
    result: outcome.ok ? outcome.result : null,
    engine: outcome.ok ? outcome.engine : null,
    error: outcome.ok ? null : outcome.error,
    submittedAt,
    completedAt: new Date().toISOString(),
    scanDurationMs: outcome.durationMs,
  };
}

/**
 * The engine could not read the file by its path (it was not handed the bytes): as when an upload
 * cannot read it, the pipeline looks at the file again (gone, permission, changed) before it fails it.
 */
function unreadable(detail: string | null): ServiceError {
  const errno = /\(([A-Z][A-Z0-9_]*)\)$/.exec(detail ?? '')?.[1];
  return wordedServiceError('file_unreadable', { cause: 'upload_problem', upload: 'unreadable', ...(errno ? { errno } : {}) }, errno ? { code: errno } : {});
}

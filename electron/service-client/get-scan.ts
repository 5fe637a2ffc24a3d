// The two reads: GET /file-scans/{id} and GET /file-scans/external-reference/{ref}.
import { scanSchema, terminalScanSchema, type Scan } from '../../shared/service-contract/scan.ts';
import { call } from './call.ts';
import type { ClientState } from './client-state.ts';
import { describeIssues } from './response-body.ts';
import { wordedServiceError } from './service-error.ts';
import { checkReference, echoesReference } from './submit-scan.ts';

export async function getScan(state: ClientState, id: string, signal: AbortSignal | undefined): Promise<Scan> {
  if (typeof id !== 'string' || id.length === 0) throw wordedServiceError('invalid_request', { cause: 'no_scan_id' });
  return call(state, {
    method: 'GET',
    path: `/file-scans/${encodeURIComponent(id)}`,
    operation: 'GET /file-scans/{id}',
    headersTimeoutMs: state.timeouts.headersMs,
    schema: scanSchema,
    check: (scan) => (scan.id !== id ? 'the scan id differs from the one requested' : terminalComplete(scan)),
    signal,
  });
}

export async function getByReference(state: ClientState, externalReferenceId: string, signal: AbortSignal | undefined): Promise<Scan> {
  checkReference(externalReferenceId);
  return call(state, {
    method: 'GET',
    // Encoded as one path segment: references may contain `/` and `#`.
    path: `/file-scans/external-reference/${encodeURIComponent(externalReferenceId)}`,
    operation: 'GET /file-scans/external-reference/{ref}',
    headersTimeoutMs: state.timeouts.headersMs,
    schema: scanSchema,
    check: (scan) => echoesReference(externalReferenceId)(scan) ?? terminalComplete(scan),
    signal,
  });
}

/** A GET may return a processing scan; a terminal one must carry its verdict (or its error). */
function terminalComplete(scan: Scan): string | undefined {
  if (scan.status === 'processing') return undefined;
  const result = terminalScanSchema.safeParse(scan);
  return result.success ? undefined : describeIssues(result.error);
}

// GET /file-scans/{id} and GET /file-scans/external-reference/{ref}: the scan
// as it is now, looked up only within the caller's integration.
import { HttpError } from '../http/http-error.ts';
import { sendJson } from '../http/respond.ts';
import { toScan } from '../scanning/scan-view.ts';
import type { StoredScan } from '../store/scan-store.ts';
import type { RequestContext, ServiceParts } from './context.ts';

export function getScanById(ctx: RequestContext, parts: ServiceParts, id: string): void {
  // Another integration's scan is indistinguishable from a missing one.
  reply(ctx, parts.store.findById(ctx.integrationId, id), new HttpError('not_found', { key: 'scanNotFound' }));
}

export function getScanByReference(ctx: RequestContext, parts: ServiceParts, reference: string): void {
  reply(ctx, parts.store.findByReference(ctx.integrationId, reference), new HttpError('not_found', { key: 'referenceNotFound' }));
}

function reply(ctx: RequestContext, scan: StoredScan | null, notFound: HttpError): void {
  if (!scan) throw notFound;
  sendJson(ctx.res, 200, toScan(scan, ctx.language), ctx.language);
}

// How long the client waits at each stage of a request.
import { SYNC_WINDOW_MS } from '../../shared/service-contract/limits.ts';

export interface ServiceTimeouts {
  /** TCP/TLS connect (only for the client's own Agent; a passed dispatcher brings its own). */
  connectMs: number;
  /** Until the response head arrives, counted from the end of the upload. */
  headersMs: number;
  /** Longest silence while the response body arrives. */
  bodyMs: number;
  /** Response head of a sync submission: the service's 90 s window plus a margin. */
  syncHeadersMs: number;
  /** Longest time the socket may refuse the next upload chunk before the upload counts as stalled. */
  uploadStallMs: number;
}

export const DEFAULT_TIMEOUTS: ServiceTimeouts = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  syncHeadersMs: SYNC_WINDOW_MS + 30_000,
  uploadStallMs: 60_000,
};

// How files will reach a clamd before any session says so: over TCP, or without the
// fd-passing addon, streamed (INSTREAM); over a unix socket with the addon, by descriptor
// (FILDES). The session client's probe corrects it once clamd is reached (clamd-client.ts).
import type { ClamdTransfer } from '../../../shared/engine/protection-state.ts';
import { loadFdPassing } from './fd-passing.ts';

/** `where`: `unix:/path` or `tcp:host:port` (endpointLabel's form). */
export function expectedTransport(where: string, fdPassing: 'auto' | 'off' = 'auto'): ClamdTransfer {
  if (!where.startsWith('unix:') || fdPassing === 'off') return 'instream';
  return loadFdPassing().ok ? 'fildes' : 'instream';
}

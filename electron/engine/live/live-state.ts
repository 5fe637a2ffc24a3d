// The live engine's state, and how a protection state found by the engine watch
// becomes one: which engine scans the next file, or why files wait.
import { protectionStatus, type ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import type { ClamdEndpoint } from '../instream/clamd-protocol.ts';
import type { EngineKind } from '../select-engine.ts';
import type { KnownClamav } from './clamav-known.ts';

export type LiveEngineState =
  /** Before the first look: files wait. */
  | { phase: 'choosing' }
  /** Verdict's own clamd is loading its signatures: files wait ("Starting ClamAV…"). */
  | { phase: 'starting'; status: ProtectionStatus }
  /** A clamd answers at `where`: it scans. */
  | { phase: 'clamav'; status: ProtectionStatus; where: string }
  /** No ClamAV, and none expected: the built-in engine scans. */
  | { phase: 'builtin'; status: ProtectionStatus }
  /** ClamAV is expected (known here, or asked for) but does not answer: files wait, up to a limit. */
  | { phase: 'missing'; status: ProtectionStatus }
  | { phase: 'closed' };

export function stateFor(status: ProtectionStatus, context: { kind: EngineKind; known: KnownClamav | null }): LiveEngineState {
  if (status.engine.name === 'clamav' && status.engine.version !== null) return { phase: 'clamav', status, where: status.engine.where };
  if (status.reason.code === 'clamd_starting') return { phase: 'starting', status };
  if (status.state !== 'limited') return { phase: 'missing', status };
  if (status.reason.code === 'builtin_requested' || (context.kind === 'auto' && context.known === null)) return { phase: 'builtin', status };
  // ClamAV scanned here before and is gone now: not_running, never a silent "limited".
  const known = context.known ?? { source: 'system' as const, where: status.engine.where };
  const tried = status.reason.params.tried;
  const detail: Record<string, string> = typeof tried === 'string' ? { detail: `not found: ${tried}` } : {};
  return {
    phase: 'missing',
    status: protectionStatus({ kind: 'not_running', source: known.source, where: known.where, why: 'clamd_not_answering', params: detail }, new Date(), MAX_ASYNC_FILE_SIZE),
  };
}

/** `unix:/path` or `tcp:host:port` (endpointLabel's form) back to the endpoint. */
export function endpointOfLabel(where: string): ClamdEndpoint {
  if (where.startsWith('unix:')) return { socketPath: where.slice('unix:'.length) };
  const tcp = /^tcp:(.+):(\d{1,5})$/.exec(where);
  if (tcp?.[1] && tcp[2]) return { host: tcp[1], port: Number(tcp[2]) };
  throw new Error(`not a clamd endpoint: ${where}`);
}

// One file the client was asked to scan, from the call until its one answer: where its
// bytes come from, how often it was sent, and whether it has been answered. A command
// whose session is lost before clamd answers is sent again on the next session: once for
// a loss nothing explains, and without counting when clamd itself said why the session
// ended; MAX_SENDS bounds both, so a file can never loop.
import type { FileIdentity } from './file-identity.ts';
import type { ClamdVerdict } from './session-reply.ts';
import type { StreamSource } from './stream-sources.ts';

/** Sends of one command at most, whatever the reasons its sessions ended. */
export const MAX_SENDS = 4;

export interface ScanCommand {
  readonly source: StreamSource;
  /** The file's identity when the caller hashed it (or when it was handed in); null for streams. */
  readonly expected: FileIdentity | null;
  readonly signal: AbortSignal | undefined;
  sends: number;
  unexplainedLosses: number;
  /** Answered (or given up); a reply that still comes is ignored. */
  settled: boolean;
  finish(verdict: ClamdVerdict): void;
}

export function newScanCommand(source: StreamSource, expected: FileIdentity | null, signal: AbortSignal | undefined, finish: (verdict: ClamdVerdict) => void): ScanCommand {
  const command: ScanCommand = {
    source,
    expected,
    signal,
    sends: 0,
    unexplainedLosses: 0,
    settled: false,
    finish(verdict) {
      if (command.settled) return;
      command.settled = true;
      finish(verdict);
    },
  };
  return command;
}

/** Whether a command the session lost unanswered may be sent again, counting this loss. */
export function mayResend(command: ScanCommand, explained: boolean): boolean {
  if (command.settled || command.sends >= MAX_SENDS) return false;
  // A Readable is read once: what it gave went to the lost session.
  if (command.source.kind === 'readable') return false;
  if (explained) return true;
  command.unexplainedLosses += 1;
  return command.unexplainedLosses <= 1;
}

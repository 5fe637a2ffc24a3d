// The user's clamd choice (Settings › Malware engine, `--clamd`) as engine options: the
// address named, only Verdict's own (the usual sockets not probed), only the system's
// (Verdict's own never started), or the usual order.
import type { ResolvedClamdChoice } from '../../shared/engine/clamd-choice.ts';

export interface ChoiceEngineOptions {
  clamdSocket?: string;
  clamdHost?: string;
  clamdPort?: number;
  socketCandidates?: readonly string[];
  /** false: Verdict's own clamd is not to be started or used. */
  ownAllowed: boolean;
}

export function engineOptionsForChoice(choice: ResolvedClamdChoice): ChoiceEngineOptions {
  switch (choice.kind) {
    case 'address':
      return choice.address.kind === 'unix'
        ? { clamdSocket: choice.address.path, ownAllowed: true }
        : { clamdHost: choice.address.host, clamdPort: choice.address.port, ownAllowed: true };
    case 'own':
      return { socketCandidates: [], ownAllowed: true };
    case 'system':
      return { ownAllowed: false };
    case 'auto':
      return { ownAllowed: true };
  }
}

// The line `scan` and `watch` print on stderr at start: which engine judges the files
// of this run, where it runs, and why, e.g.
// `Engine: ClamAV 1.4.6 · custom signatures only at unix:/…/clamd.sock (outdated), Verdict's own clamd` or
// `Engine: basic checks (EICAR test file only): ClamAV is not installed …`.
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { engineLine, protectionReasonText } from '../local-service/engines/protection-text.ts';

const SOURCES = { configured: 'the configured clamd', system: "the system's clamd", own: "Verdict's own clamd", builtin: 'basic checks' } as const;

export function startEngineLine(view: ProtectionView): string {
  if (view.remote !== null) return `Engine: the remote service's own (${new URL(view.remote).origin})`;
  const status = view.status;
  if (status === null) return 'Engine: not known (the service on this computer did not start)';
  if (status.engine.name === 'builtin') return `Engine: basic checks (EICAR test file only): ${protectionReasonText(status)}`;
  if (status.reason.code === 'clamd_starting') return `Engine: Starting ClamAV… (Verdict's own clamd at ${status.engine.where} is loading its signatures; files wait for it)`;
  if (status.state === 'not_running') return `Engine: ClamAV, not answering: ${protectionReasonText(status)}`;
  const database = view.databaseDir === null ? '' : `, signatures from ${view.databaseDir}`;
  return `${engineLine(status)}, ${SOURCES[status.engine.source]}${database}`;
}

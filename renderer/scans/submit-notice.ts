// What the user is told after handing paths to Verdict: how many were queued,
// skipped by an exclusion, or refused outright (those are never counted as queued).
import type { SubmitSummary } from '../../shared/scans/record.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';

export function submitNotice({ queued, skipped, failed }: SubmitSummary): { kind: 'info' | 'error'; key: MessageKey; params?: MessageParams } {
  if (failed > 0) return { kind: 'error', key: 'drop.failed', params: { queued, skipped, failed } };
  if (queued === 0 && skipped > 0) return { kind: 'info', key: skipped === 1 ? 'drop.skipped_one' : 'drop.skipped_other', params: { count: skipped } };
  if (queued === 0) return { kind: 'info', key: 'drop.nothingQueued' };
  if (skipped > 0) return { kind: 'info', key: 'drop.queuedSkipped', params: { queued, skipped } };
  return { kind: 'info', key: queued === 1 ? 'drop.queued_one' : 'drop.queued_other', params: { count: queued } };
}

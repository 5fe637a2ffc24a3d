// What the user is told after handing paths to Verdict: how many were queued,
// skipped by an exclusion or as a link out of the folder, or refused outright
// (those are never counted as queued).
import type { SubmitSummary } from '../../shared/scans/record.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';

export function submitNotice({ queued, skipped, linksNotFollowed, failed }: SubmitSummary): { kind: 'info' | 'error'; key: MessageKey; params?: MessageParams } {
  const allSkipped = skipped + linksNotFollowed;
  if (failed > 0) return { kind: 'error', key: 'drop.failed', params: { queued, skipped: allSkipped, failed } };
  // Not "by your exclusions": no setting left these out.
  if (linksNotFollowed > 0) {
    const key = linksNotFollowed === 1 ? 'drop.linksNotFollowed_one' : 'drop.linksNotFollowed_other';
    return { kind: 'info', key, params: { queued, skipped: allSkipped, count: linksNotFollowed } };
  }
  if (queued === 0 && skipped > 0) return { kind: 'info', key: skipped === 1 ? 'drop.skipped_one' : 'drop.skipped_other', params: { count: skipped } };
  if (queued === 0) return { kind: 'info', key: 'drop.nothingQueued' };
  if (skipped > 0) return { kind: 'info', key: 'drop.queuedSkipped', params: { queued, skipped } };
  return { kind: 'info', key: queued === 1 ? 'drop.queued_one' : 'drop.queued_other', params: { count: queued } };
}

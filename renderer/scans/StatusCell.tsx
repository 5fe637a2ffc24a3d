// A scan's local status; while uploading, a progress bar fed by `progress` events.
// Selects only this scan's progress, so an upload re-renders one row.
import type { ReactElement } from 'react';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { formatPercent } from '../i18n/format.ts';
import type { Translator } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { dispositionLabel } from '../quarantine/disposition-text.ts';
import { useVerdict } from '../store/use-verdict.ts';

const KNOWN_REASONS = ['awaiting_api_key', 'retrying', 'service_unreachable', 'backend_unavailable', 'fingerprinting', 'waiting_for_identical', 'awaiting_upload_consent', 'engine_starting', 'engine_waiting'] as const;
type KnownReason = (typeof KNOWN_REASONS)[number];
const isKnownReason = (reason: string): reason is KnownReason => (KNOWN_REASONS as readonly string[]).includes(reason);

/** Why a scan waits (ScanRecord.pendingReason), in words. */
export function pendingText(translate: Translator, reason: string): string {
  return isKnownReason(reason) ? translate.t(`pending.${reason}`) : translate.t('pending.other', { reason });
}

export function StatusCell({ record }: { record: ScanRecord }): ReactElement {
  const translate = useTranslator();
  const progress = useVerdict((state) => state.progress[record.id]);
  const label = translate.t(`status.${record.status}`);
  if (record.pendingReason && (record.status === 'queued' || record.status === 'uploading' || record.status === 'processing')) {
    return (
      <span className={`status status--${record.status}`} title={pendingText(translate, record.pendingReason)}>
        {pendingText(translate, record.pendingReason)}
      </span>
    );
  }
  if (record.status === 'uploading') {
    const fraction = progress && progress.total > 0 ? Math.min(1, progress.sent / progress.total) : null;
    return (
      <span className="status status--uploading">
        <span>{label}</span>
        <progress
          className="status__progress"
          max={1}
          {...(fraction === null ? {} : { value: fraction })}
          aria-label={translate.t('status.uploadProgress')}
          aria-valuetext={fraction === null ? undefined : formatPercent(translate.locale, fraction)}
        />
      </span>
    );
  }
  // A finished threat: what was done about it says more than "Completed" (a file lost from quarantine is not "Deleted").
  if (record.status === 'completed' && record.disposition && record.disposition !== 'allowed') {
    return <span className={`status status--completed status--${record.disposition}`}>{dispositionLabel(translate, { ...record, disposition: record.disposition })}</span>;
  }
  return <span className={`status status--${record.status}`}>{label}</span>;
}

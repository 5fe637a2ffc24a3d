// What was done about a threat, and what the user can do now, by the record's
// disposition: move to quarantine or allow (notified only), restore / allow /
// delete permanently (in quarantine), try again (the move failed), stop
// allowing (allowed), and allowing a detection name. The quarantine entry (where it came from, since when) is
// fetched for the record.
import { useEffect, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { isLostFromQuarantine, type QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { api } from '../bridge/api.ts';
import { formatDateTime } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { AllowedIcon, QuarantineIcon, WarningIcon } from '../icons/icons.tsx';
import { allowUnquarantined, deletePermanently, moveToQuarantine, restoreOne, stopAllowing } from '../quarantine/quarantine-actions.ts';
import { deletedText } from '../quarantine/disposition-text.ts';
import { quarantineReasonShown } from '../quarantine/quarantine-reason.ts';
import { ToolWords } from '../app/ToolWords.tsx';
import { AllowByName } from './AllowByName.tsx';

/** The quarantine entry of a record, refetched when its disposition changes. */
function useEntry(record: ScanRecord): QuarantineEntry | null {
  const [entry, setEntry] = useState<{ key: string; value: QuarantineEntry | null } | null>(null);
  const key = `${record.id}:${record.quarantineId ?? ''}:${record.disposition ?? ''}`;
  useEffect(() => {
    if (!record.quarantineId) return;
    let stale = false;
    void api.quarantine.forRecord(record.id).then((result) => {
      if (!stale) setEntry({ key, value: result.ok ? result.value : null });
    });
    return () => {
      stale = true;
    };
  }, [key, record.id, record.quarantineId]);
  return entry?.key === key ? entry.value : null;
}

export function ThreatResponse({ record }: { record: ScanRecord }): ReactElement {
  const disposition = record.disposition ?? null;
  // One element whatever the disposition: the focus scope that keeps focus when an action replaces its buttons.
  return (
    <>
      <div
        className={`threat-actions${disposition === 'quarantined' ? ' threat-actions--quarantined' : ''}`}
        data-testid="threat-actions"
        data-disposition={disposition ?? 'none'}
        data-file-lost={(disposition === 'deleted' && isLostFromQuarantine(record)) || undefined}
        data-focus-scope
        tabIndex={-1}
      >
        <Actions record={record} />
      </div>
      {/* Allowing a detection name is offered for any threat not already allowed (issue 28 §1). Outside the actions'
          focus scope: when a move replaces their buttons, focus goes to the replacement (Restore), not to this. */}
      {disposition !== 'allowed' && disposition !== 'quarantine_pending' ? <AllowByName record={record} how="allow" /> : null}
    </>
  );
}

function Actions({ record }: { record: ScanRecord }): ReactElement {
  const { t, locale } = useTranslator();
  const entry = useEntry(record);
  const [busy, setBusy] = useState(false);
  // While an action runs its buttons say so (aria-disabled) but stay focusable: a disabled button would drop focus.
  const run = (action: () => Promise<unknown>) => async (): Promise<void> => {
    if (busy) return;
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  switch (record.disposition ?? null) {
    case null:
      return (
        <>
          <p>{t('threat.notified')}</p>
          <div className="detail__actions">
            <button type="button" className="button button--danger" aria-disabled={busy} onClick={run(() => moveToQuarantine([record]))}>
              <QuarantineIcon />
              {t('threat.moveToQuarantine')}
            </button>
            <button type="button" className="button" aria-disabled={busy} onClick={run(() => allowUnquarantined(record))}>
              {t('threat.allow')}
            </button>
          </div>
        </>
      );
    case 'quarantine_pending':
      return <p>{t('threat.moving')}</p>;
    case 'quarantine_failed':
      return (
        <>
          <p className="threat-actions__problem">
            <WarningIcon />
            <span>{record.error?.code === 'hash_mismatch' ? t('threat.failedChanged') : t('threat.failed')}</span>
          </p>
          {record.error ? (
            <p className="muted small" data-testid="quarantine-failure-reason">
              <FailureReason shown={quarantineReasonShown({ t }, record.error)} />
            </p>
          ) : null}
          <div className="detail__actions">
            <button type="button" className="button button--danger" aria-disabled={busy} onClick={run(() => moveToQuarantine([record]))}>
              {t('threat.tryAgain')}
            </button>
          </div>
        </>
      );
    case 'quarantined':
      return (
        <>
          <p className="threat-actions__status">
            <QuarantineIcon />
            <strong>{t('threat.inQuarantine')}</strong>
          </p>
          {entry ? (
            <p data-testid="quarantine-entry">
              {t('threat.inQuarantineSince', { date: formatDateTime(locale, entry.quarantinedAt) })}{' '}
              {entry.originalPath ? t('threat.originalLocation', { path: displayName(entry.originalPath) }) : t('threat.originalUnknown')}
              {entry.noLongerDetectedAt ? (
                <span className="threat__no-longer" data-testid="no-longer-detected">
                  {' '}
                  {t('threat.noLongerDetected', { date: formatDateTime(locale, entry.noLongerDetectedAt) })}
                </span>
              ) : null}
            </p>
          ) : null}
          <p className="muted small">{t('threat.quarantineHint')}</p>
          <div className="detail__actions">
            <button type="button" className="button" disabled={!entry} aria-disabled={busy} onClick={run(async () => entry && restoreOne(entry, 'restore'))}>
              {t('threat.restore')}
            </button>
            <button type="button" className="button" disabled={!entry} aria-disabled={busy} onClick={run(async () => entry && restoreOne(entry, 'allow'))}>
              {t('threat.allowRestore')}
            </button>
            <button type="button" className="button button--danger" disabled={!entry} aria-disabled={busy} onClick={run(async () => entry && deletePermanently([entry.id]))}>
              {t('threat.delete')}
            </button>
          </div>
        </>
      );
    case 'restored':
      return <p>{entry?.restoredTo ? t('threat.restoredTo', { path: displayName(entry.restoredTo) }) : t('threat.restored')}</p>;
    case 'deleted':
      // Also a file removed from the quarantine folder outside Verdict (file_lost): said as such, not as the user's deletion.
      return <p>{deletedText({ t }, record)}</p>;
    case 'allowed':
      if (record.allowedBy === 'name') {
        return (
          <>
            <p className="threat-actions__status">
              <AllowedIcon />
              <span>{t('threat.allowedByName')}</span>
            </p>
            <AllowByName record={record} how="stop" />
          </>
        );
      }
      return (
        <>
          <p className="threat-actions__status">
            <AllowedIcon />
            <span>{entry?.restoredTo ? t('threat.allowedRestoredTo', { path: displayName(entry.restoredTo) }) : t('threat.allowedHint')}</span>
          </p>
          {record.sha256 ? (
            <div className="detail__actions">
              <button type="button" className="button" aria-disabled={busy} onClick={run(() => stopAllowing(record.sha256 as string))}>
                {t('threat.stopAllowing')}
              </button>
            </div>
          ) : null}
        </>
      );
  }
}

/** The reason in the UI's language, or the core's English words named as the core's. */
function FailureReason({ shown }: { shown: ReturnType<typeof quarantineReasonShown> }): ReactElement {
  return 'text' in shown ? <>{shown.text}</> : <ToolWords said={shown.said} />;
}

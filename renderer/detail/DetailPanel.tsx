// Everything known about the selected scan, what the verdict means, and for a
// failure what went wrong and what to do next.
import { findingLabel } from '../../shared/scans/finding-label.ts';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { isExclusionReason, LINK_OUTSIDE } from '../../shared/scans/exclusion.ts';
import { isGivenWhileSelfTestFailed, verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import { consentHostLabel } from '../../shared/settings/protection.ts';
import { MAX_SYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { api, call } from '../bridge/api.ts';
import { formatCount, formatDateTime, formatDuration, formatSize } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { CloseIcon, CopyIcon, FolderIcon, SkipIcon, ThreatIcon, UploadIcon, WarningIcon } from '../icons/icons.tsx';
import { remoteServiceOrigin } from '../../shared/settings/folder-route.ts';
import { rescan } from '../scans/submit-paths.ts';
import { sendWaiting } from '../quarantine/quarantine-actions.ts';
import { VerdictBadge } from '../scans/VerdictBadge.tsx';
import { verdictStore } from '../store/store.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { failureHelp } from './failure-help.ts';
import { failureText, failureWords } from './failure-text.ts';
import { withToolWords } from '../app/ToolWords.tsx';
import { TOOL_LANGUAGE } from '../app/tool-said.ts';
import { verdictEngineText } from './engine-text.ts';
import { showScan } from './show-scan.ts';
import { useDetailOpener } from './detail-opener.ts';
import { ExclusionReason } from './ExclusionReason.tsx';
import { linkOutsideText } from './exclusion-text.ts';
import { ThreatResponse } from './ThreatResponse.tsx';
import { BasicChecksChoice } from './BasicChecksChoice.tsx';
import { PartialExplanation } from './PartialExplanation.tsx';
import { RecheckedFrom } from './RecheckedFrom.tsx';
import { DigestsOnRequest } from './DigestsOnRequest.tsx';
import { VirusTotalLookup } from './VirusTotalLookup.tsx';
import { unsafeHint } from '../quarantine/disposition-text.ts';
import { Fact } from '../app/Fact.tsx';

export function DetailPanel(): ReactElement | null {
  const { t } = useTranslator();
  const selectedId = useVerdict((state) => state.selectedId);
  const record = useVerdict((state) => (state.selectedId ? state.records.get(state.selectedId) : undefined));
  const select = useVerdict((state) => state.select);
  const [missing, setMissing] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  const returnFocus = useDetailOpener(selectedId, panel);

  // A selection outside the loaded pages (e.g. from a notification) is fetched once.
  useEffect(() => {
    if (!selectedId || record) return;
    let stale = false;
    void api.scans.get(selectedId).then((result) => {
      if (stale) return;
      if (result.ok) verdictStore.getState().putRecord(result.value);
      else setMissing(selectedId);
    });
    return () => {
      stale = true;
    };
  }, [selectedId, record]);

  if (!selectedId) return null;
  // Focus goes back first: the button it is on is about to go.
  const close = (): void => {
    returnFocus();
    select(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    close();
  };
  return (
    <aside ref={panel} className="detail" aria-labelledby="detail-title" data-testid="detail-panel" data-focus-scope onKeyDown={onKeyDown}>
      <div className="detail__head">
        <h2 id="detail-title" className="detail__title">
          {/* Hidden and bidi control characters shown as ⟨U+XXXX⟩; <bdi> keeps a right-to-left name from reordering anything around it. */}
          {record ? <bdi>{displayName(record.fileName)}</bdi> : t('detail.label')}
        </h2>
        <button type="button" className="button button--icon" onClick={close} aria-label={t('detail.close')} title={t('detail.close')}>
          <CloseIcon />
        </button>
      </div>
      {record ? <RecordDetails record={record} /> : <p className="muted">{missing === selectedId ? t('detail.notFound') : t('list.loading')}</p>}
    </aside>
  );
}

function RecordDetails({ record }: { record: ScanRecord }): ReactElement {
  const translator = useTranslator();
  const { t, locale } = translator;
  const engineText = verdictEngineText(record, translator);
  const verdict = verdictOf(record);
  const unknown = t('detail.unknown');
  const time = (iso: string | null): string => (iso ? formatDateTime(locale, iso) : unknown);

  return (
    <div className="detail__body" data-focus-scope>
      <div className="detail__verdict">
        <VerdictBadge record={record} large />
        {/* The built-in engine's label says "clean …": beside a basic-checks badge it would contradict it; "scanned in part" would repeat
            the badge (both stay among the facts). */}
        {record.detailed && verdict !== 'basic-only' && verdict !== 'partial' ? <span className="detail__detailed">{record.detailed}</span> : null}
      </div>
      <VerdictExplanation record={record} />
      <BasicChecksChoice record={record} />
      {/* A clean verdict stays "clean" (verdictOf says why), but never without this. */}
      {isGivenWhileSelfTestFailed(record) ? (
        <p className="callout callout--warning" data-testid="self-test-failed">
          {t('detail.selfTestFailed')}
        </p>
      ) : null}
      <RecheckedFrom record={record} />
      {record.reusedFromId ? (
        <p className="callout callout--info" data-testid="reused">
          {t('detail.reused')}{' '}
          <button type="button" className="link" onClick={() => void showScan(record.reusedFromId as string)}>
            {t('detail.showOriginal')}
          </button>
        </p>
      ) : null}
      <div className="detail__actions">
        <button type="button" className="button button--primary" onClick={() => void rescan(record)} disabled={verdict === 'pending'}>
          {t('detail.rescan')}
        </button>
        <button type="button" className="button" onClick={() => void call(api.files.reveal(record.path))}>
          <FolderIcon />
          {t('detail.reveal')}
        </button>
      </div>
      <dl className="facts">
        {/* Laid out like a hash: the value, then its copy button, which copies the real path (escaped characters included). */}
        <div className="facts__row facts__row--hash">
          <dt>{t('detail.path')}</dt>
          <dd>
            <bdi className="mono break" data-testid="detail-path">
              {displayName(record.path)}
            </bdi>
            <CopyButton value={record.path} name={t('detail.path')} />
          </dd>
        </div>
        <Fact label={t('detail.size')}>
          {record.size === null ? unknown : record.size < 1024 ? formatSize(locale, record.size) : `${formatSize(locale, record.size)} (${formatCount(locale, record.size)} B)`}
        </Fact>
        <Fact label={t('detail.type')}>{record.fileType ?? unknown}</Fact>
        <Fact label={t('detail.detailed')}>{record.detailed ?? unknown}</Fact>
        {engineText ? (
          <Fact label={t('detail.engine')}>
            <span data-testid="detail-engine">{engineText}</span>
          </Fact>
        ) : null}
        <Fact label={t('detail.findings')}>
          {record.findings.length === 0 ? (
            t('detail.noFindings')
          ) : (
            <ul className="findings">
              {record.findings.map((finding, i) => (
                <li key={i}>
                  {/* The engine's own words (a signature name, an engine's id): English, shown like every name. */}
                  <bdi className="mono" lang={TOOL_LANGUAGE} data-testid="finding-name">
                    {displayName(findingLabel(finding))}
                  </bdi>
                  {finding.engine ? (
                    <span className="muted">
                      {' ('}
                      <span lang={TOOL_LANGUAGE}>{displayName(finding.engine)}</span>)
                    </span>
                  ) : null}
                  {finding.feed ? (
                    <span className="muted" data-testid="finding-feed">
                      {` · ${t('detail.findingFeed')} `}
                      <bdi>{displayName(finding.feed)}</bdi>
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Fact>
        <Fact label={t('detail.mode')}>
          <span data-testid="detail-mode">
            {record.mode ? t(`mode.${record.mode}`) : unknown}
            {/* Whatever the setting says (sync too), a file over the sync limit goes async: say why. */}
            {record.mode === 'async' && record.size !== null && record.size > MAX_SYNC_FILE_SIZE ? ` (${t('detail.asyncOverSyncLimit')})` : null}
          </span>
        </Fact>
        <Fact label={t('detail.backend')}>{record.backend === 'local' ? t('detail.backendLocal') : record.backend}</Fact>
        <Fact label={t('detail.origin')}>{t(`origin.${record.origin}`)}</Fact>
        <Fact label={t('detail.externalReference')}>
          <span className="mono break">{record.externalReferenceId}</span>
        </Fact>
        <Fact label={t('detail.serviceScanId')}>
          <span className="mono break">{record.serviceScanId ?? unknown}</span>
        </Fact>
        <Fact label={t('detail.queued')}>{time(record.queuedAt)}</Fact>
        <Fact label={t('detail.submitted')}>{time(record.submittedAt)}</Fact>
        <Fact label={t('detail.completed')}>{time(record.completedAt)}</Fact>
        <Fact label={t('detail.duration')}>{record.durationMs === null ? unknown : formatDuration(locale, record.durationMs)}</Fact>
      </dl>
      <h3 className="detail__subtitle">{t('detail.hashes')}</h3>
      <dl className="facts facts--hashes">
        <Hash name="MD5" value={record.md5} />
        <Hash name="SHA-1" value={record.sha1} />
        <Hash name="SHA-256" value={record.sha256} />
      </dl>
      <DigestsOnRequest key={record.id} record={record} />
      <VirusTotalLookup record={record} />
    </div>
  );
}

function VerdictExplanation({ record }: { record: ScanRecord }): ReactElement | null {
  const { t, locale } = useTranslator();
  const settings = useVerdict((state) => state.settings);
  switch (verdictOf(record)) {
    case 'unsafe':
      return (
        <div className="callout callout--danger" role="note">
          <ThreatIcon />
          <div className="callout__content">
            <strong>{t('detail.unsafeTitle')}</strong>
            <p>{unsafeHint({ t }, record)}</p>
            <ThreatResponse record={record} />
          </div>
        </div>
      );
    case 'allowed':
      return (
        <div className="callout callout--info" role="note">
          <strong>{t('detail.allowedTitle')}</strong>
          <p>{t('detail.allowedHint')}</p>
          <ThreatResponse record={record} />
        </div>
      );
    case 'could-not-scan': {
      const help = failureHelp(record.error?.code);
      return (
        <div className="callout callout--warning" role="note" data-testid="failure" data-failure-kind={help.kind}>
          <WarningIcon />
          <div>
            <strong>{t('detail.failureTitle')}</strong>
            <p data-testid="failure-reason">{t(help.reason)}</p>
            {record.error ? (
              <p className="muted small" data-testid="failure-detail">
                {/* The core's sentence, in the UI's language where it recorded parameters; it may quote the path: shown like every name. */}
                {withToolWords(displayName(failureText({ t, locale }, record.error)), failureWords(record.error).map(displayName))} · {t('detail.errorCode', { code: record.error.code })}
              </p>
            ) : null}
            <strong>{t('detail.nextStep')}</strong>
            <p data-testid="failure-next">{t(help.next)}</p>
          </div>
        </div>
      );
    }
    case 'skipped':
      if (record.error?.code === LINK_OUTSIDE) {
        // No "scan anyway": the target is added by itself (a rescan checks the link against its folder again).
        return (
          <div className="callout callout--neutral" role="note" data-testid="link-outside">
            <SkipIcon />
            <div>
              <strong>{t('detail.linkOutsideTitle')}</strong>
              <p data-testid="skip-reason">{linkOutsideText({ t }, record.error)}</p>
              <p className="muted small">{t('detail.excludedHint')}</p>
            </div>
          </div>
        );
      }
      if (record.error && isExclusionReason(record.error.code)) {
        return (
          <div className="callout callout--neutral" role="note" data-testid="excluded">
            <SkipIcon />
            <div>
              <strong>{t('detail.excludedTitle')}</strong>
              <ExclusionReason error={record.error} />
              <p className="muted small">{t('detail.excludedHint')}</p>
              <button type="button" className="button button--small" onClick={() => void rescan(record)}>
                {t('detail.scanAnyway')}
              </button>
            </div>
          </div>
        );
      }
      return <p className="callout callout--neutral">{t('detail.skippedHint')}</p>;
    case 'pending': {
      const origin = settings ? remoteServiceOrigin(settings) : null;
      if (record.pendingReason === 'awaiting_upload_consent' && origin) {
        return (
          <div className="callout callout--info" role="note" data-testid="awaiting-consent">
            <strong>{t('upload.waitingTitle', { host: consentHostLabel(origin) })}</strong>
            <p>{t('upload.waitingHint')}</p>
            <button type="button" className="button button--primary button--small" onClick={() => void sendWaiting([record])}>
              <UploadIcon />
              {t('upload.sendTo', { host: consentHostLabel(origin) })}
            </button>
          </div>
        );
      }
      return <p className="callout callout--neutral">{t('detail.pendingHint')}</p>;
    }
    case 'basic-only':
      return (
        <div className="callout callout--warning" role="note" data-testid="basic-only">
          <WarningIcon />
          <div>
            <strong>{t('detail.basicOnlyTitle')}</strong>
            <p>{t('detail.basicOnlyHint')}</p>
            <strong>{t('detail.nextStep')}</strong>
            <p>{t('detail.basicOnlyNext')}</p>
          </div>
        </div>
      );
    case 'partial':
      return <PartialExplanation record={record} />;
    case 'safe':
      return null;
  }
}

function Hash({ name, value }: { name: string; value: string | null }): ReactElement {
  const { t } = useTranslator();
  return (
    <div className="facts__row facts__row--hash">
      <dt>{name}</dt>
      <dd>
        <span className="mono break">{value ?? t('detail.unknown')}</span>
        {value ? <CopyButton value={value} name={name} /> : null}
      </dd>
    </div>
  );
}

function CopyButton({ value, name }: { value: string; name: string }): ReactElement {
  const { t } = useTranslator();
  const [copied, setCopied] = useState(false);
  const copy = async (): Promise<void> => {
    if ((await call(api.files.copyText(value))) !== undefined) setCopied(true);
  };
  return (
    <button type="button" className="button button--small" onClick={() => void copy()} aria-label={t(copied ? 'detail.copiedLabel' : 'detail.copyLabel', { name })} onBlur={() => setCopied(false)}>
      <CopyIcon />
      {copied ? t('detail.copied') : t('detail.copy')}
    </button>
  );
}

// "Scan with basic checks only" (issue 14): offered for a file that waits for ClamAV,
// known here and gone, or failed waiting for it. The user's choice, never automatic:
// the built-in engine recognises only the EICAR test file.
import { useState, type ReactElement } from 'react';
import { basicChecksChoiceFor } from '../../shared/engine/basic-checks-choice.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';

export function BasicChecksChoice({ record }: { record: ScanRecord }): ReactElement | null {
  const { t } = useTranslator();
  const [sending, setSending] = useState(false);
  if (basicChecksChoiceFor(record) === null) return null;
  const send = async (): Promise<void> => {
    if (sending) return;
    setSending(true);
    const result = await call(api.scans.scanWithBasicChecks([record.id]));
    setSending(false);
    if (!result) return;
    verdictStore.getState().notify('info', result.switched + result.queued > 0 ? 'basicChecks.started' : 'basicChecks.notWaiting');
  };
  return (
    <div className="callout callout--info" role="note" data-testid="basic-checks-choice">
      <p id={`basic-checks-hint-${record.id}`}>{t('basicChecks.hint')}</p>
      {/* aria-disabled while sending: disabling the button would drop its focus. */}
      <button
        type="button"
        className="button button--small"
        aria-disabled={sending || undefined}
        aria-describedby={`basic-checks-hint-${record.id}`}
        onClick={() => void send()}
      >
        {t('basicChecks.action')}
      </button>
    </div>
  );
}

// "Scan again with ClamAV (N files)": shown once ClamAV scans and some files were
// judged clean by basic checks only (the built-in engine). One press sends them again.
import { useEffect, useState, type ReactElement } from 'react';
import { clamavScansNow } from '../../shared/engine/clamav-available.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';
import { useVerdict } from '../store/use-verdict.ts';

export function BasicOnlyRescan(): ReactElement | null {
  const { t, tn } = useTranslator();
  const available = useVerdict((state) => clamavScansNow(state.protection));
  const [count, setCount] = useState(0);
  const [sending, setSending] = useState(false);

  // Counted again whenever ClamAV becomes available (or goes).
  useEffect(() => {
    if (!available) return;
    let stale = false;
    void call(api.scans.basicOnlyCount()).then((result) => {
      if (!stale && result) setCount(result.count);
    });
    return () => {
      stale = true;
    };
  }, [available]);

  if (!available || count === 0) return null;
  const send = async (): Promise<void> => {
    if (sending) return;
    setSending(true);
    const result = await call(api.scans.rescanBasicOnly());
    setSending(false);
    if (!result) return;
    setCount(0);
    const { queued, missing } = result;
    if (missing > 0) verdictStore.getState().notify('info', 'basicOnly.queuedSomeMissing', { queued, missing });
    else verdictStore.getState().notify('info', queued === 1 ? 'basicOnly.queued_one' : 'basicOnly.queued_other', { count: queued });
  };
  return (
    <p className="callout callout--info basic-only" data-testid="basic-only-rescan">
      {t('basicOnly.hint')}{' '}
      {/* aria-disabled while sending: disabling the button would drop its focus. */}
      <button type="button" className="button button--small" aria-disabled={sending || undefined} onClick={() => void send()}>
        {tn('basicOnly.action', count)}
      </button>
    </p>
  );
}

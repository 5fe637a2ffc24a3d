// The one-line status: confirmations fade after a while, errors stay until dismissed.
import { useEffect, type ReactElement } from 'react';
import { shownParams } from '../i18n/shown-params.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { CloseIcon } from '../icons/icons.tsx';
import { ToolWords } from './ToolWords.tsx';
import { useVerdict } from '../store/use-verdict.ts';

const INFO_VISIBLE_MS = 6000;

export function NoticeLine(): ReactElement {
  const { t } = useTranslator();
  const notice = useVerdict((state) => state.notice);
  const dismiss = useVerdict((state) => state.dismissNotice);

  useEffect(() => {
    if (notice?.kind !== 'info') return;
    const timer = setTimeout(dismiss, INFO_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);

  // Names, paths and the core's sentences in a notice are shown through displayName() (shownParams).
  // The live regions always exist, so screen readers announce what appears in them.
  return (
    <div className="notices">
      <div role="status" aria-live="polite" data-testid="notice-info">
        {notice?.kind === 'info' ? <p className="notice notice--info">{t(notice.key, shownParams(notice.params))}</p> : null}
      </div>
      <div role="alert" data-testid="notice-error">
        {notice?.kind === 'error' ? (
          <p className="notice notice--error">
            <span>
              {t(notice.key, shownParams(notice.params))}
              {notice.said ? <ToolWords said={notice.said} /> : null}
            </span>
            <button type="button" className="button button--icon" onClick={dismiss} aria-label={t('error.dismiss')} title={t('error.dismiss')}>
              <CloseIcon />
            </button>
          </p>
        ) : null}
      </div>
    </div>
  );
}

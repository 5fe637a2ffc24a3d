// The threat count, impossible to miss, with a shortcut to list the threats.
import type { ReactElement } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';
import { ThreatIcon } from '../icons/icons.tsx';
import { useVerdict } from '../store/use-verdict.ts';

export function ThreatBanner(): ReactElement | null {
  const { t, tn } = useTranslator();
  const threatCount = useVerdict((state) => state.threatCount);
  const setFilters = useVerdict((state) => state.setFilters);
  const showSection = useVerdict((state) => state.showSection);
  if (threatCount === 0) return null;
  return (
    <div className="threat-banner" role="alert" data-testid="threat-banner">
      <ThreatIcon className="threat-banner__icon" />
      <div className="threat-banner__text">
        <strong>{tn('threats.banner', threatCount)}</strong>
        <span>{t('threats.bannerHint')}</span>
      </div>
      <button
        type="button"
        className="button button--danger"
        onClick={() => {
          showSection('scans');
          setFilters({ status: 'all', verdict: 'unsafe', search: '' });
        }}
      >
        {t('threats.show')}
      </button>
    </div>
  );
}

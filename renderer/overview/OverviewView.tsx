// The protection overview (issue 29 §5): pictures of the last 30 days from the history, asked
// for each time the view opens (one core call, indexed queries), the signature updates and the protection facts.
import { useEffect, useState, type ReactElement } from 'react';
import { OVERVIEW_DAYS, type ProtectionOverview } from '../../shared/overview/overview.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { DailyBars } from './DailyBars.tsx';
import { OverviewFacts } from './OverviewFacts.tsx';
import { SignatureUpdates } from './SignatureUpdates.tsx';
import { TopDetections } from './TopDetections.tsx';
import { VerdictMix } from './VerdictMix.tsx';

export function OverviewView(): ReactElement {
  const { t } = useTranslator();
  // undefined: asking; null: the core could not answer (call() has shown why).
  const [overview, setOverview] = useState<ProtectionOverview | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void call(api.overview.get({ utcOffsetMinutes: -new Date().getTimezoneOffset() })).then((value) => {
      if (current) setOverview(value ?? null);
    });
    return () => {
      current = false;
    };
  }, []);
  return (
    <div className="overview" data-testid="overview-view" aria-busy={overview === undefined}>
      <h1 className="overview__title">{t('overview.title')}</h1>
      {overview === undefined ? (
        <p className="muted">{t('overview.loading')}</p>
      ) : overview === null ? (
        <p className="muted">{t('overview.failed')}</p>
      ) : (
        <>
          <p className="muted">{t('overview.period', { days: String(OVERVIEW_DAYS) })}</p>
          <DailyBars days={overview.days} pick={(day) => day.scanned} title={t('overview.scanned.title')} tone="files" testId="overview-scanned" />
          <DailyBars days={overview.days} pick={(day) => day.threats} title={t('overview.threats.title')} tone="threats" testId="overview-threats" />
          <div className="overview__pair">
            <VerdictMix verdicts={overview.verdicts} />
            <TopDetections detections={overview.topDetections} />
          </div>
          <SignatureUpdates days={overview.days} updates={overview.signatureUpdates} />
          <OverviewFacts overview={overview} />
        </>
      )}
    </div>
  );
}

// The facts beside the pictures: the last full scan and the next scheduled one, a saved scan's
// too (from the overview), the last self-test and the signatures' age now (from the protection view).
import type { ReactElement } from 'react';
import type { ProtectionOverview } from '../../shared/overview/overview.ts';
import { Fact } from '../app/Fact.tsx';
import { formatCount } from '../i18n/format.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { selfTestText } from '../protection/protection-text.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { momentText } from './overview-format.ts';

function nextText(next: ProtectionOverview['nextScheduled'], { t, locale }: Translator): string {
  if (next === null) return t('overview.facts.noSchedule');
  const time = momentText(locale, next.at);
  return next.kind === 'saved' ? t('overview.facts.nextSaved', { name: next.name, time }) : `${t(`jobs.kind.${next.kind}`)}: ${time}`;
}

export function OverviewFacts({ overview }: { overview: ProtectionOverview }): ReactElement {
  const translator = useTranslator();
  const { t, tn, locale } = translator;
  const status = useVerdict((state) => state.protection?.status ?? null);
  const full = overview.lastFullScan;
  const next = overview.nextScheduled;
  const signatures = status?.engine.signatures ?? null;
  return (
    <section className="card overview-facts" data-testid="overview-facts">
      <h2 className="overview-chart__title">{t('overview.facts.title')}</h2>
      <dl className="facts">
        <Fact label={t('overview.facts.lastFull')}>
          {full
            ? t('overview.facts.lastFullValue', {
                time: momentText(locale, full.finishedAt),
                status: t(`jobs.status.${full.status}` as MessageKey),
                scanned: formatCount(locale, full.scanned),
                threats: formatCount(locale, full.threats),
              })
            : t('overview.facts.never')}
        </Fact>
        <Fact label={t('overview.facts.selfTest')}>{status ? selfTestText(status, translator) : t('overview.facts.unknown')}</Fact>
        <Fact label={t('overview.facts.next')}>{nextText(next, translator)}</Fact>
        <Fact label={t('overview.facts.signatures')}>
          {signatures ? tn('overview.facts.signaturesValue', signatures.ageDays, { version: String(signatures.version), date: momentText(locale, signatures.date) }) : t('overview.facts.unknown')}
        </Fact>
      </dl>
    </section>
  );
}

// The verdict as a badge: icon + text + colour, never colour alone. The verdict
// itself comes from verdictOf() in shared/, the one place that decides it.
import type { ReactElement } from 'react';
import { verdictOf, type ScanRecord, type Verdict } from '../../shared/scans/record.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { AllowedIcon, BasicOnlyIcon, CleanIcon, ClockIcon, PartialIcon, SkipIcon, ThreatIcon, WarningIcon } from '../icons/icons.tsx';

const ICONS: Record<Verdict, (props: { className?: string }) => ReactElement> = {
  unsafe: ThreatIcon,
  safe: CleanIcon,
  // Basic checks only (ClamAV was not available): its own outline and word, never the clean check.
  'basic-only': BasicOnlyIcon,
  // Scanned in part (over a scan limit, or encrypted): half a circle, never the clean check.
  partial: PartialIcon,
  'could-not-scan': WarningIcon,
  pending: ClockIcon,
  skipped: SkipIcon,
  // Its own shape and word: content the user allowed is never shown as clean.
  allowed: AllowedIcon,
};

export function VerdictBadge({ record, large = false }: { record: Pick<ScanRecord, 'status' | 'safe' | 'disposition' | 'detailed' | 'engine'>; large?: boolean }): ReactElement {
  const { t } = useTranslator();
  const verdict = verdictOf(record);
  const Icon = ICONS[verdict];
  return (
    <span className={`badge badge--${verdict}${large ? ' badge--large' : ''}`} data-verdict={verdict}>
      <Icon />
      <span className="badge__text">{t(`verdict.${verdict}`)}</span>
    </span>
  );
}

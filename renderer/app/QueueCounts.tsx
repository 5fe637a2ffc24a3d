// How many scans wait, upload and process right now.
import type { ReactElement } from 'react';
import { formatCount } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';

export function QueueCounts(): ReactElement {
  const { t, locale } = useTranslator();
  const queued = useVerdict((state) => state.counts.queued);
  const uploading = useVerdict((state) => state.counts.uploading);
  const processing = useVerdict((state) => state.counts.processing);
  const busy = queued + uploading + processing > 0;
  return (
    <dl className={`queue${busy ? ' queue--busy' : ''}`} aria-label={t('queue.label')} data-testid="queue-counts">
      {(
        [
          ['queued', queued],
          ['uploading', uploading],
          ['processing', processing],
        ] as const
      ).map(([key, value]) => (
        <div key={key} className="queue__item" data-queue={key}>
          <dt>{t(`queue.${key}`)}</dt>
          <dd>{formatCount(locale, value)}</dd>
        </div>
      ))}
    </dl>
  );
}

// "Scan this computer": a quick scan (where downloads and attachments land), a full
// scan (the home folder) or a custom scan of chosen folders. Each starts a job, whose
// row appears in the list of this computer's scans below.
import type { ReactElement } from 'react';
import type { JobStart } from '../../shared/jobs/job.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { startJob } from './job-actions.ts';

const CHOICES: ReadonlyArray<{ kind: JobStart['kind']; label: MessageKey; hint: MessageKey }> = [
  { kind: 'quick', label: 'jobs.start.quick', hint: 'jobs.start.quickHint' },
  { kind: 'full', label: 'jobs.start.full', hint: 'jobs.start.fullHint' },
  { kind: 'custom', label: 'jobs.start.custom', hint: 'jobs.start.customHint' },
];

export function ScanComputer(): ReactElement {
  const { t } = useTranslator();
  return (
    <div className="scan-computer" role="group" aria-labelledby="scan-computer-label">
      <h2 id="scan-computer-label" className="scan-computer__label">
        {t('jobs.start.label')}
      </h2>
      <div className="scan-computer__choices">
        {CHOICES.map((choice) => (
          <button
            key={choice.kind}
            type="button"
            className="button scan-computer__choice"
            data-testid={`start-${choice.kind}`}
            aria-describedby={`scan-computer-hint-${choice.kind}`}
            onClick={() => void startJob(choice.kind)}
          >
            {t(choice.label)}
            <span id={`scan-computer-hint-${choice.kind}`} className="scan-computer__hint">
              {t(choice.hint)}
            </span>
          </button>
        ))}
      </div>
    </div>
  );
}

// This computer's scans: one row per job, newest first (at most JOBS_SHOWN), and the
// summary of a job that ended while the window was open, kept until dismissed. A list
// of its own above the scans: a job's row holds buttons and an expansion, which the
// scans' listbox (options only) cannot.
import type { ReactElement } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';
import { CloseIcon } from '../icons/icons.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { summaryText } from './job-text.ts';
import { JobRow } from './JobRow.tsx';

export function JobList(): ReactElement | null {
  const { t, locale } = useTranslator();
  const jobs = useVerdict((state) => state.jobs);
  const summary = useVerdict((state) => state.jobSummary);
  const dismiss = useVerdict((state) => state.dismissJobSummary);
  if (jobs.length === 0 && !summary) return null;
  return (
    <section className="jobs" aria-labelledby="jobs-title">
      <h2 id="jobs-title" className="jobs__title">
        {t('jobs.list.label')}
      </h2>
      <div role="status" data-testid="job-summary">
        {summary ? (
          <p className={`job-summary${summary.counts.threats > 0 ? ' job-summary--threats' : ''}`}>
            <span>{summaryText({ t, locale }, summary)}</span>
            <button type="button" className="button button--icon" onClick={dismiss} aria-label={t('jobs.summary.dismiss')} title={t('jobs.summary.dismiss')}>
              <CloseIcon />
            </button>
          </p>
        ) : null}
      </div>
      <ul className="jobs__list">
        {jobs.map((progress) => (
          <JobRow key={progress.job.id} progress={progress} />
        ))}
      </ul>
    </section>
  );
}

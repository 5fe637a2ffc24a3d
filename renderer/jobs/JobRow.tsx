// One scan job's row: its kind, state and start; what it found, scanned, flagged,
// could not scan and skipped; its size, pace, where it is and the time left; pause,
// resume and cancel while it runs. The toggle (aria-expanded) opens its details.
import { memo, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { isFinalStatus, type JobProgress } from '../../shared/jobs/job.ts';
import { formatCount, formatDuration, formatRowTime, formatSize } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { FolderIcon } from '../icons/icons.tsx';
import { controlJob } from './job-actions.ts';
import { jobName, statusKey } from './job-text.ts';
import { JobDetails } from './JobDetails.tsx';

export const JobRow = memo(function JobRow({ progress }: { progress: JobProgress }): ReactElement {
  const { t, locale } = useTranslator();
  const [expanded, setExpanded] = useState(false);
  const { job, filesPerSecond, etaSeconds } = progress;
  const final = isFinalStatus(job.status);
  const running = job.status === 'running';
  // Stopped (paused, interrupted): the bar stands still at what is done of what was found so far.
  const measured = job.walkComplete || !running;
  const c = job.counts;
  const detailsId = `job-details-${job.id}`;
  const done = c.scanned + c.couldNotScan + c.skipped;
  // Found so far: "+" while the walk is still finding files.
  const found = `${formatCount(locale, c.found)}${job.walkComplete || final ? '' : '+'}`;
  const facts: ReadonlyArray<readonly [MessageKey, string, string]> = [
    ['jobs.fact.found', found, 'found'],
    ['jobs.fact.scanned', formatCount(locale, c.scanned), 'scanned'],
    ['jobs.fact.threats', formatCount(locale, c.threats), 'threats'],
    ['jobs.fact.couldNotScan', formatCount(locale, c.couldNotScan), 'could-not-scan'],
    ['jobs.fact.skipped', formatCount(locale, c.skipped), 'skipped'],
    ['jobs.fact.size', formatSize(locale, c.bytes), 'size'],
    // A pace and a time left only while it runs; a paused or interrupted job has the time it ran so far.
    ...(running
      ? ([
          ['jobs.fact.speed', t('jobs.speed', { rate: formatCount(locale, Math.round(filesPerSecond)) }), 'speed'],
          ['jobs.fact.eta', etaSeconds === null ? t('jobs.eta.unknown') : formatDuration(locale, etaSeconds * 1000), 'eta'],
        ] as const)
      : ([['jobs.fact.duration', formatDuration(locale, job.activeMs), 'duration']] as const)),
  ];

  return (
    <li className={`job job--${job.status}${c.threats > 0 ? ' job--threats' : ''}`} data-testid="job-row" data-job-id={job.id} data-status={job.status}>
      <div className="job__head">
        <button type="button" className="job__toggle" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded(!expanded)}>
          <span className="job__chevron" aria-hidden="true" />
          <span className="job__kind">{jobName(t, job)}</span>
          <span className={`job__status job__status--${job.status}`}>{t(statusKey(job))}</span>
          <time className="job__time" dateTime={job.startedAt}>
            {formatRowTime(locale, job.startedAt)}
          </time>
        </button>
        {final ? null : (
          <div className="job__controls">
            {job.status === 'paused' || job.status === 'interrupted' ? (
              <button type="button" className="button" onClick={() => void controlJob(job.id, 'resume')}>
                {t('jobs.resume')}
              </button>
            ) : (
              <button type="button" className="button" onClick={() => void controlJob(job.id, 'pause')}>
                {t('jobs.pause')}
              </button>
            )}
            <button type="button" className="button" onClick={() => void controlJob(job.id, 'cancel')}>
              {t('jobs.cancel')}
            </button>
          </div>
        )}
      </div>
      <dl className="job__facts">
        {facts.map(([label, value, name]) => (
          <div key={name} className={`job__fact job__fact--${name}`} data-fact={name}>
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {final ? null : (
        <>
          <progress
            className="job__progress"
            aria-label={t(statusKey(job))}
            max={measured ? Math.max(1, c.found) : undefined}
            value={measured ? done : undefined}
          />
          {job.currentFolder ? (
            <p className="job__folder">
              <FolderIcon />
              <span>{t(running ? 'jobs.fact.folder' : 'jobs.fact.folderStopped')}</span> <bdi title={displayName(job.currentFolder)}>{displayName(job.currentFolder)}</bdi>
              {job.walkComplete || !running ? null : <span className="muted"> ({t('jobs.walking')})</span>}
            </p>
          ) : null}
          {job.status === 'interrupted' ? <p className="job__note">{t('jobs.interruptedHint')}</p> : null}
        </>
      )}
      <div id={detailsId} className="job__details" hidden={!expanded}>
        {expanded ? <JobDetails job={job} /> : null}
      </div>
    </li>
  );
});

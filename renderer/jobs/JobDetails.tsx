// A job's expansion: what its defaults (and a saved scan's settings) left out, its threats, the files it could not
// scan, those scanned in part, those checked with basic checks only and the ones it skipped (a page each, then
// "show more"), and a search for its clean files by name or hash, a page at a time:
// never a wall of rows.
import { useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import type { JobState } from '../../shared/jobs/job.ts';
import { coverageReasons } from '../../shared/scans/coverage.ts';
import { verdictOf, type ScanRecord, type Verdict } from '../../shared/scans/record.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { VerdictBadge } from '../scans/VerdictBadge.tsx';
import { withToolWords } from '../app/ToolWords.tsx';
import { failureWords } from '../detail/failure-text.ts';
import { CleanSearch } from './CleanSearch.tsx';
import { openJobFile, reasonOf, useJobFiles } from './job-files.ts';

const PAGE = 20;

/** The folders the job leaves out: its defaults, and apart from them those of the saved scan it runs, named. */
function LeftOut({ job }: { job: JobState }): ReactElement | null {
  const { t } = useTranslator();
  const own = new Set(job.savedScan?.excluded);
  const byDefault = job.excluded.filter((folder) => !own.has(folder));
  const list = (folders: readonly string[]) => folders.map((folder) => displayName(folder)).join(', ');
  if (byDefault.length === 0 && own.size === 0) return null;
  return (
    <>
      {byDefault.length > 0 ? <p className="muted job-details__left-out">{t('jobs.leftOut', { folders: list(byDefault) })}</p> : null}
      {job.savedScan && own.size > 0 ? (
        <p className="muted job-details__left-out">{t('jobs.leftOutSaved', { name: displayName(job.savedScan.name), folders: list([...own]) })}</p>
      ) : null}
    </>
  );
}

export function JobDetails({ job }: { job: JobState }): ReactElement {
  const c = job.counts;
  // A job counts its files of basic checks only among those scanned without a threat: the history tells how many.
  const answered = Math.max(0, c.scanned - c.threats);
  const basicOnly = useJobFiles(answered > 0 ? { job: job.id, verdicts: ['basic-only'], limit: 1, offset: 0, order: 'oldest' } : null, answered).page?.total ?? 0;
  // Files scanned in part (over a scan limit, or encrypted) are counted there too, and are never clean.
  const partial = useJobFiles(answered > 0 ? { job: job.id, verdicts: ['partial'], limit: 1, offset: 0, order: 'oldest' } : null, answered).page?.total ?? 0;
  return (
    <div className="job-details">
      <LeftOut job={job} />
      <JobFiles jobId={job.id} verdicts={['unsafe', 'allowed']} title="jobs.files.threats" count={c.threats} name="threats" />
      <JobFiles jobId={job.id} verdicts={['could-not-scan']} title="jobs.files.couldNotScan" count={c.couldNotScan} name="could-not-scan" />
      {partial > 0 ? <JobFiles jobId={job.id} verdicts={['partial']} title="jobs.files.partial" count={partial} name="partial" /> : null}
      {basicOnly > 0 ? <JobFiles jobId={job.id} verdicts={['basic-only']} title="jobs.files.basicOnly" count={basicOnly} name="basic-only" /> : null}
      <JobFiles jobId={job.id} verdicts={['skipped']} title="jobs.files.skipped" count={c.skipped} name="skipped" />
      <CleanSearch jobId={job.id} clean={Math.max(0, answered - basicOnly - partial)} basicOnly={basicOnly} />
    </div>
  );
}

interface JobFilesProps {
  jobId: number;
  verdicts: Verdict[];
  title: MessageKey;
  /** How many the job counted: the list is fetched again when it changes. */
  count: number;
  name: string;
}

function JobFiles({ jobId, verdicts, title, count, name }: JobFilesProps): ReactElement {
  const translator = useTranslator();
  const { t, tn } = translator;
  const [limit, setLimit] = useState(PAGE);
  const { page } = useJobFiles(count > 0 ? { job: jobId, verdicts, limit, offset: 0, order: 'oldest' } : null, count);
  const headingId = `job-${jobId}-${name}`;
  const items = page?.items ?? [];
  const more = Math.min(PAGE, Math.max(0, (page?.total ?? 0) - items.length));
  return (
    <section className="job-files" aria-labelledby={headingId} data-testid={`job-files-${name}`}>
      <h3 id={headingId} className="job-files__title">
        {t(title)} <span className="muted">({count})</span>
      </h3>
      {count === 0 ? (
        <p className="muted">{t('jobs.files.none')}</p>
      ) : (
        <ul className="job-files__list">
          {items.map((record) => (
            <li key={record.id} className={`job-file job-file--${verdictOf(record)}`}>
              <button type="button" className="job-file__name link-button" title={displayName(record.path)} onClick={() => openJobFile(record)}>
                <bdi>{displayName(record.fileName)}</bdi>
              </button>
              <VerdictBadge record={record} />
              <Reason translator={translator} record={record} />
            </li>
          ))}
        </ul>
      )}
      {more > 0 ? (
        <button type="button" className="button" onClick={() => setLimit(limit + PAGE)}>
          {tn('jobs.files.more', more)}
        </button>
      ) : null}
    </section>
  );
}

/** Why a file was not scanned (or scanned in part); the system's words in it marked as such. */
function Reason({ translator, record }: { translator: Translator; record: ScanRecord }): ReactElement | null {
  const coverage = verdictOf(record) === 'partial' ? coverageReasons(record.findings)[0] : undefined;
  if (coverage) return <span className="job-file__reason muted">{translator.t(`coverage.${coverage}`)}</span>;
  const reason = reasonOf(translator, record);
  if (!reason || !record.error) return null;
  const quoted = record.status === 'failed' ? failureWords(record.error) : [];
  return <span className="job-file__reason muted">{withToolWords(reason, quoted)}</span>;
}

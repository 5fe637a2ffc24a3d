// A job's clean files, found by part of a name or the start of a hash, ten at a time
// with previous and next: a scan of a home folder has hundreds of thousands of them.
// Files judged by basic checks only are found too, each with its own badge (never "clean").
import { useEffect, useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { formatCount } from '../i18n/format.ts';
import { VerdictBadge } from '../scans/VerdictBadge.tsx';
import { useTranslator } from '../i18n/use-translator.ts';
import { openJobFile, useJobFiles } from './job-files.ts';

const PAGE = 10;
const TYPING_MS = 250;

/** `clean`: the job's clean files; `basicOnly`: those checked with basic checks only (found by the search too, each with its badge). */
export function CleanSearch({ jobId, clean, basicOnly }: { jobId: number; clean: number; basicOnly: number }): ReactElement {
  const { t, tn, locale } = useTranslator();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setOffset(0);
    }, TYPING_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  // The results and the pager stay while the next page loads: Next and Previous keep focus.
  const { page, loading } = useJobFiles(search ? { job: jobId, verdicts: ['safe', 'basic-only'], search, limit: PAGE, offset, order: 'oldest' } : null, 0, true);
  const inputId = `job-${jobId}-clean-search`;
  const hintId = `${inputId}-hint`;
  const total = page?.total ?? 0;
  return (
    <section className="clean-search" data-testid="job-clean-search">
      <label htmlFor={inputId} className="clean-search__label">
        {t('jobs.clean.label')}
      </label>
      <input
        id={inputId}
        type="search"
        className="input clean-search__input"
        placeholder={t('jobs.clean.placeholder')}
        aria-describedby={hintId}
        value={typed}
        maxLength={512}
        onChange={(event) => setTyped(event.target.value)}
      />
      <p id={hintId} className="muted clean-search__hint">
        {basicOnly > 0 ? tn('jobs.clean.hintWithBasic', clean, { basic: formatCount(locale, basicOnly) }) : tn('jobs.clean.hint', clean)}
      </p>
      {page && search ? (
        <div role="status" className="clean-search__results" aria-busy={loading || undefined}>
          <p>{page.totalIsLowerBound ? `${tn('jobs.clean.results', total)}+` : tn('jobs.clean.results', total)}</p>
          <ul className="job-files__list">
            {page.items.map((record) => (
              <li key={record.id} className="job-file">
                <button type="button" className="job-file__name link-button" title={displayName(record.path)} onClick={() => openJobFile(record)}>
                  <bdi>{displayName(record.fileName)}</bdi>
                </button>
                <VerdictBadge record={record} />
                <span className="muted job-file__path">
                  <bdi>{displayName(record.path)}</bdi>
                </span>
              </li>
            ))}
          </ul>
          {total > PAGE ? (
            <div className="clean-search__pager">
              {/* aria-disabled at either end, not disabled: the button pressed keeps focus. */}
              <PagerButton label={t('jobs.clean.previous')} unavailable={offset === 0} onPress={() => setOffset(Math.max(0, offset - PAGE))} />
              <span>{t('jobs.clean.page', { from: formatCount(locale, offset + 1), to: formatCount(locale, Math.min(total, offset + PAGE)), total: formatCount(locale, total) })}</span>
              <PagerButton label={t('jobs.clean.next')} unavailable={offset + PAGE >= total} onPress={() => setOffset(offset + PAGE)} />
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function PagerButton({ label, unavailable, onPress }: { label: string; unavailable: boolean; onPress(): void }): ReactElement {
  return (
    <button type="button" className="button" aria-disabled={unavailable || undefined} onClick={() => (unavailable ? undefined : onPress())}>
      {label}
    </button>
  );
}

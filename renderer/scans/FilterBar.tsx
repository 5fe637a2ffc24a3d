// Status and verdict filters and the name/hash search (debounced, so typing
// does not send a query per key).
import { useEffect, useState, type ReactElement } from 'react';
import { localStatusSchema, type LocalStatus, type Verdict } from '../../shared/scans/record.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { isFiltered, NO_FILTERS } from './filters.ts';

const STATUSES: readonly LocalStatus[] = localStatusSchema.options;
const VERDICTS: readonly Verdict[] = ['unsafe', 'could-not-scan', 'partial', 'basic-only', 'safe', 'allowed', 'pending', 'skipped'];
const SEARCH_DELAY_MS = 250;

export function FilterBar(): ReactElement {
  const { t } = useTranslator();
  const filters = useVerdict((state) => state.filters);
  const setFilters = useVerdict((state) => state.setFilters);
  const [search, setSearch] = useState(filters.search);
  // Follow outside changes (e.g. "Clear filters", "Show threats").
  const [seen, setSeen] = useState(filters.search);
  if (filters.search !== seen) {
    setSeen(filters.search);
    setSearch(filters.search);
  }

  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => setFilters({ search }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters.search, setFilters]);

  return (
    <form className="filters" role="search" aria-label={t('filter.label')} onSubmit={(event) => {
      event.preventDefault();
      setFilters({ search });
    }}>
      <label className="field field--inline">
        <span className="field__label">{t('filter.status')}</span>
        <select value={filters.status} onChange={(event) => setFilters({ status: event.target.value as LocalStatus | 'all' })}>
          <option value="all">{t('filter.all')}</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`status.${status}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field field--inline">
        <span className="field__label">{t('filter.verdict')}</span>
        <select value={filters.verdict} onChange={(event) => setFilters({ verdict: event.target.value as Verdict | 'all' })}>
          <option value="all">{t('filter.all')}</option>
          {VERDICTS.map((verdict) => (
            <option key={verdict} value={verdict}>
              {t(`verdict.${verdict}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field field--inline field--grow">
        <span className="field__label">{t('filter.search')}</span>
        <input type="search" value={search} placeholder={t('filter.searchPlaceholder')} onChange={(event) => setSearch(event.target.value)} spellCheck={false} />
      </label>
      {isFiltered(filters) ? (
        <button type="button" className="button button--quiet" onClick={() => setFilters(NO_FILTERS)}>
          {t('filter.clear')}
        </button>
      ) : null}
    </form>
  );
}

// A page of a job's own rows (its threats, failures, skipped files, or clean files
// matching a search), fetched from the history; and opening one in the detail panel.
import { useEffect, useState } from 'react';
import { LINK_OUTSIDE } from '../../shared/scans/exclusion.ts';
import type { HistoryQuery, Page, ScanRecord } from '../../shared/scans/record.ts';
import { api } from '../bridge/api.ts';
import { exclusionText, linkOutsideText } from '../detail/exclusion-text.ts';
import { failureText } from '../detail/failure-text.ts';
import type { Translator } from '../i18n/messages.ts';
import { verdictStore } from '../store/store.ts';

export interface JobFilesPage {
  page: Page<ScanRecord> | null;
  failed: boolean;
  /** The page shown is the previous query's: this one's is on its way. */
  loading?: boolean;
}

/**
 * The rows of `query`, fetched again whenever `refresh` changes (a count of the job's
 * rows of this kind: new ones came); null `query`: nothing to fetch (an empty search).
 * `keep`: the previous query's page stays while the next one loads (a pager keeps its
 * place, and the button pressed keeps focus).
 */
export function useJobFiles(query: HistoryQuery | null, refresh: number, keep = false): JobFilesPage {
  const [state, setState] = useState<JobFilesPage & { key: string | null }>({ key: null, page: null, failed: false });
  const key = query ? JSON.stringify(query) : null;
  useEffect(() => {
    if (key === null) return;
    let current = true;
    api.scans.list(JSON.parse(key) as HistoryQuery).then(
      (result) => current && setState(result.ok ? { key, page: result.value, failed: false } : { key, page: null, failed: true }),
      () => current && setState({ key, page: null, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [key, refresh]);
  // An answer for another query (or none wanted) is not shown, unless kept; the last one stays while a refresh is on its way.
  if (key === null) return { page: null, failed: false };
  if (state.key === key) return state;
  return keep && state.page ? { page: state.page, failed: false, loading: true } : { page: null, failed: false };
}

/** Shows the scan in the detail panel (it is not among the list's rows). */
export function openJobFile(record: ScanRecord): void {
  const store = verdictStore.getState();
  store.putRecord(record);
  store.select(record.id);
}

/** Why a file of the job was not scanned, in the UI's language. */
export function reasonOf(translator: Pick<Translator, 't' | 'locale'>, record: ScanRecord): string | null {
  if (!record.error) return null;
  if (record.status === 'failed') return failureText(translator, record.error);
  return record.error.code === LINK_OUTSIDE ? linkOutsideText(translator, record.error) : exclusionText(translator, record.error);
}

// A recheck's changed verdict (issue 27 §1): the file was judged again after a signature update, and
// the earlier scan had judged it clean. The link is not in the list's records: it is asked for once,
// for a completed verdict other than clean of a job's file (a recheck runs as a job).
import { useEffect, useState, type ReactElement } from 'react';
import { verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import { api } from '../bridge/api.ts';
import { formatDateTime } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { showScan } from './show-scan.ts';

type Link = NonNullable<ScanRecord['recheckOf']>;

export function RecheckedFrom({ record }: { record: ScanRecord }): ReactElement | null {
  const { t, locale } = useTranslator();
  const [fetched, setFetched] = useState<{ id: string; link: Link | null } | null>(null);
  const candidate = record.jobId !== undefined && record.status === 'completed' && verdictOf(record) !== 'safe' && !record.recheckOf;
  useEffect(() => {
    if (!candidate) return;
    let stale = false;
    void api.scans.get(record.id).then((result) => {
      if (!stale && result.ok) setFetched({ id: record.id, link: result.value.recheckOf ?? null });
    });
    return () => {
      stale = true;
    };
  }, [record.id, candidate]);
  const link = record.recheckOf ?? (fetched?.id === record.id ? fetched.link : null);
  if (!link) return null;
  return (
    <p className="callout callout--info" data-testid="rechecked-from">
      {link.completedAt ? t('detail.recheckedFrom', { date: formatDateTime(locale, link.completedAt) }) : t('detail.recheckedFromUndated')}
      {link.externalReferenceId ? (
        <>
          {' '}
          <button type="button" className="link" onClick={() => void showScan(link.id)}>
            {t('detail.showEarlierScan')}
          </button>
        </>
      ) : null}
    </p>
  );
}

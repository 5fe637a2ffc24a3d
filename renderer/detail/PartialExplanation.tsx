// Why a file was scanned in part (over a scan limit, or encrypted: shared/scans/coverage.ts),
// one sentence per reason, under a title that says it is neither clean nor a threat.
import type { ReactElement } from 'react';
import { coverageReasons } from '../../shared/scans/coverage.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { PartialIcon } from '../icons/icons.tsx';

export function PartialExplanation({ record }: { record: Pick<ScanRecord, 'findings'> }): ReactElement {
  const { t } = useTranslator();
  return (
    <div className="callout callout--warning" role="note" data-testid="partial">
      <PartialIcon />
      <div>
        <strong>{t('detail.partialTitle')}</strong>
        {coverageReasons(record.findings).map((reason) => (
          <p key={reason} data-reason={reason}>
            {t(`coverage.${reason}`)}
          </p>
        ))}
        <p>{t('detail.partialHint')}</p>
      </div>
    </div>
  );
}

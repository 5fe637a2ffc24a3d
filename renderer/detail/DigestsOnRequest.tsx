// "Compute MD5 and SHA-1" (issue 26 §3): a local scan records sha256 only. For a file still on
// disk, the main process reads it once more and gives MD5 and SHA-1 only if the content is the
// one scanned (same sha256 and size); a file changed or gone is said so, in the UI's language.
import { useState, type ReactElement } from 'react';
import type { FileDigestsOnRequest } from '../../shared/bridge/api.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { api } from '../bridge/api.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';

type Phase = { kind: 'idle' } | { kind: 'computing' } | { kind: 'done'; digests: FileDigestsOnRequest } | { kind: 'failed'; key: MessageKey };

const PROBLEMS: Record<string, MessageKey> = {
  file_changed: 'digests.problem.file_changed',
  file_gone: 'digests.problem.file_gone',
  digests_not_scanned: 'digests.problem.digests_not_scanned',
};

/** Keyed by the record's id where it is used, so another scan starts afresh. */
export function DigestsOnRequest({ record }: { record: ScanRecord }): ReactElement | null {
  const { t } = useTranslator();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  if (record.sha256 === null || (record.md5 !== null && record.sha1 !== null)) return null;
  const compute = async (): Promise<void> => {
    if (phase.kind === 'computing') return;
    setPhase({ kind: 'computing' });
    try {
      const result = await api.scans.digests(record.id);
      setPhase(result.ok ? { kind: 'done', digests: result.value } : { kind: 'failed', key: PROBLEMS[result.error.code] ?? 'digests.problem.other' });
    } catch {
      setPhase({ kind: 'failed', key: 'digests.problem.other' });
    }
  };
  return (
    <div className="digests-on-request" data-testid="digests-on-request">
      {phase.kind === 'done' ? (
        <dl className="facts facts--hashes" data-testid="digests-computed">
          <div className="facts__row facts__row--hash">
            <dt>MD5</dt>
            <dd className="mono break">{phase.digests.md5}</dd>
          </div>
          <div className="facts__row facts__row--hash">
            <dt>SHA-1</dt>
            <dd className="mono break">{phase.digests.sha1}</dd>
          </div>
        </dl>
      ) : (
        // aria-disabled while computing: disabling the button would drop its focus.
        <button type="button" className="button button--small" aria-disabled={phase.kind === 'computing' || undefined} onClick={() => void compute()} data-testid="digests-compute">
          {phase.kind === 'computing' ? t('digests.computing') : t('digests.compute')}
        </button>
      )}
      <p className={phase.kind === 'failed' ? 'field-error' : 'muted small'} role={phase.kind === 'failed' ? 'alert' : undefined} data-testid="digests-note">
        {phase.kind === 'failed' ? t(phase.key) : phase.kind === 'done' ? t('digests.computedFrom') : t('digests.hint')}
      </p>
    </div>
  );
}

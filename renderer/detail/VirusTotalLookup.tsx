// A second opinion by hash (issue 29 §4): "Look up on VirusTotal" opens VirusTotal's page
// for the SHA-256 in the browser (a link: the shell's external-link allow list opens it;
// nothing is uploaded), and, with the user's VirusTotal key, VirusTotal's last analysis
// from the main process (which keeps the key and the 4-a-minute queue).
import { useEffect, useState, type ReactElement } from 'react';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { virusTotalFileUrl, type VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';
import { ToolWords } from '../app/ToolWords.tsx';
import { api } from '../bridge/api.ts';
import { formatCount, formatDateTime } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVirusTotalKeyVersion } from './virustotal-key-version.ts';

export function VirusTotalLookup({ record }: { record: ScanRecord }): ReactElement | null {
  const { t } = useTranslator();
  const keyVersion = useVirusTotalKeyVersion();
  const sha256 = record.sha256;
  if (!sha256) return null;
  return (
    <section className="virustotal" aria-labelledby="virustotal-title" data-testid="virustotal">
      <h3 id="virustotal-title" className="detail__subtitle">
        {t('virusTotal.title')}
      </h3>
      {/* Keyed on the hash (another file's answer never shows under this one) and the key's changes (asked again). */}
      <LastAnalysis key={`${sha256}:${keyVersion}`} sha256={sha256} />
      <div className="detail__actions">
        <a className="button" href={virusTotalFileUrl(sha256)} target="_blank" rel="noreferrer noopener" data-testid="virustotal-link">
          {t('virusTotal.open')}
        </a>
      </div>
      <p className="muted small">{t('virusTotal.openHint')}</p>
    </section>
  );
}

function LastAnalysis({ sha256 }: { sha256: string }): ReactElement {
  const { t } = useTranslator();
  const [answer, setAnswer] = useState<VirusTotalAnswer | null>(null);
  useEffect(() => {
    let live = true;
    // Not through call(): every answer, a failure too, is told here rather than as a notice.
    void api.virusTotal.lookup(sha256).then(
      (result) => live && setAnswer(result.ok ? result.value : { kind: 'unavailable', detail: result.error.message }),
      (error: unknown) => live && setAnswer({ kind: 'unavailable', detail: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [sha256]);
  return (
    <div role="status" aria-live="polite" data-testid="virustotal-analysis" data-kind={answer?.kind ?? 'asking'}>
      {answer ? <AnswerText answer={answer} /> : <p className="muted">{t('virusTotal.asking')}</p>}
    </div>
  );
}

function AnswerText({ answer }: { answer: VirusTotalAnswer }): ReactElement {
  const { t, locale } = useTranslator();
  switch (answer.kind) {
    case 'known': {
      const counts = { malicious: formatCount(locale, answer.malicious), suspicious: formatCount(locale, answer.suspicious), engines: formatCount(locale, answer.engines) };
      return (
        <>
          <p>
            <strong>{answer.engines === 0 ? t('virusTotal.noEngines') : t(answer.suspicious > 0 ? 'virusTotal.detectionsSuspicious' : 'virusTotal.detections', counts)}</strong>
          </p>
          <p className="muted small">
            {answer.analysedAt ? t('virusTotal.analysedAt', { date: formatDateTime(locale, answer.analysedAt) }) : t('virusTotal.noDate')} · {t('virusTotal.ownVerdictStays')}
          </p>
        </>
      );
    }
    case 'unknown':
      return (
        <>
          <p>
            <strong>{t('virusTotal.unknown')}</strong>
          </p>
          <p className="muted small">{t('virusTotal.unknownHint')}</p>
        </>
      );
    case 'no_key':
      return <p className="muted small">{t('virusTotal.noKey')}</p>;
    case 'key_refused':
      return <p className="field-error">{t('virusTotal.keyRefused')}</p>;
    case 'quota':
      return <p className="field-error">{t('virusTotal.quota')}</p>;
    case 'unavailable':
      return (
        <p className="field-error">
          {t('virusTotal.unavailable')} <ToolWords said={{ tool: 'core', words: answer.detail }} />
        </p>
      );
  }
}

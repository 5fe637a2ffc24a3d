// Which engine made a verdict, in words: "ClamAV 1.4.6 · signatures 27467 of
// 24 Nov 2026", or "Basic checks only (EICAR test file): ClamAV was not available".
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import type { Locale, Translator } from '../i18n/messages.ts';

// Day, month, year as the issue words it in English (24 Nov 2026); the signatures' date is UTC.
const DATE_LOCALES: Record<Locale, string> = { en: 'en-GB', de: 'de-DE' };

/** null: no verdict to speak of (pending, failed, skipped). */
export function verdictEngineText(record: { safe: boolean | null; backend: string; engine?: EngineIdentity | null }, tr: Translator): string | null {
  if (record.safe === null) return null;
  const engine = record.engine ?? null;
  if (engine === null) return tr.t(record.backend === 'local' ? 'detail.engine.notRecorded' : 'detail.engine.notReported');
  if (engine.name === 'builtin') return tr.t('detail.engine.builtin');
  if (engine.version === null) return tr.t('detail.engine.clamav');
  if (engine.signatures === null) return tr.t('detail.engine.clamavUndated', { version: engine.version });
  const date = new Intl.DateTimeFormat(DATE_LOCALES[tr.locale], { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(engine.signatures.date));
  // The signature version as clamd names it, without a thousands separator.
  return tr.t('detail.engine.clamavSignatures', { version: engine.version, signatureVersion: String(engine.signatures.version), date });
}

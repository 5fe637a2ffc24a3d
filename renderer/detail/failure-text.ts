// A failed scan's specific line in the UI's language, worded from the cause and
// parameters the core recorded (shared/scans/failure.ts). The stored sentence is
// kept for a failure the service worded itself (it chose the language), and for a
// record written before the core recorded parameters.
import { byteCount, failureCode, megabytes, scanFailureParamsSchema, type ScanFailureParams } from '../../shared/scans/failure.ts';
import type { RecordError } from '../../shared/scans/record.ts';
import type { MessageKey, Translator } from '../i18n/messages.ts';

/** The system's error codes the upload words (the rest are shown as they are, e.g. EIO). */
const ERRNO_KEYS: Record<string, MessageKey> = {
  ENOENT: 'scanFailure.errno.gone',
  EACCES: 'scanFailure.errno.denied',
  EPERM: 'scanFailure.errno.denied',
  EISDIR: 'scanFailure.errno.directory',
  ELOOP: 'scanFailure.errno.links',
};

type Upload = Extract<ScanFailureParams, { cause: 'upload_problem' }>;

export function failureText({ t, locale }: Pick<Translator, 't' | 'locale'>, error: RecordError): string {
  const parsed = scanFailureParamsSchema.safeParse(error.params);
  if (!parsed.success || failureCode(parsed.data.cause) !== error.code) return error.message;
  const params = parsed.data;

  const upload = (problem: Omit<Upload, 'cause'>): string => {
    switch (problem.upload) {
      case 'unreadable': {
        const key = problem.errno === undefined ? undefined : ERRNO_KEYS[problem.errno];
        return t('scanFailure.upload.unreadable', { reason: key ? t(key) : (problem.errno ?? 'EIO') });
      }
      case 'size_changed':
        return problem.before === undefined || problem.after === undefined
          ? t('scanFailure.upload.size_changed_unknown')
          : t('scanFailure.upload.size_changed', { before: byteCount(problem.before, locale), after: byteCount(problem.after, locale) });
      default:
        return t(`scanFailure.upload.${problem.upload}`);
    }
  };

  const sentence = ((): string => {
    switch (params.cause) {
      case 'upload_problem':
        return upload(params);
      case 'kept_changing_upload':
        return t('scanFailure.kept_changing_upload', { upload: upload(params) });
      case 'not_regular':
        return t('scanFailure.not_regular', { path: params.path, kind: t(`scanFailure.kind.${params.kind}`) });
      case 'over_limit':
        return t('scanFailure.over_limit', {
          path: params.path,
          size: megabytes(params.size, locale),
          sizeBytes: byteCount(params.size, locale),
          limit: megabytes(params.limit, locale),
          limitBytes: byteCount(params.limit, locale),
        });
      case 'over_service_limit':
        return t('scanFailure.over_service_limit', { size: megabytes(params.size, locale), limit: megabytes(params.limit, locale) });
      case 'http_too_large':
        return t('scanFailure.http_too_large', { syncLimit: megabytes(params.syncLimit, locale), asyncLimit: megabytes(params.asyncLimit, locale) });
      default: {
        // The rest name only text (paths, the system's or the service's detail, a request) and an HTTP status, shown as they are.
        const { cause, attempts: _attempts, ...named } = params;
        return t(`scanFailure.${cause}`, Object.fromEntries(Object.entries(named).map(([name, value]) => [name, String(value)])));
      }
    }
  })();
  return params.attempts === undefined ? sentence : t('scanFailure.gaveUp', { sentence, attempts: params.attempts });
}

/**
 * The words a failure's line quotes from elsewhere (the system's error, a service's answer, an
 * errno code): English whatever the UI's language, so the page marks them (ToolWords.tsx).
 */
export function failureWords(error: RecordError): string[] {
  const parsed = scanFailureParamsSchema.safeParse(error.params);
  if (!parsed.success) return [];
  const params: Record<string, unknown> = parsed.data;
  const errnoOnly = params.errno !== undefined && ERRNO_KEYS[String(params.errno)] === undefined;
  return [params.detail, errnoOnly ? params.errno : undefined].filter((value): value is string => typeof value === 'string' && value !== '');
}

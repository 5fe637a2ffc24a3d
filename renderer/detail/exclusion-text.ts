// Why a skipped scan was left out, in the UI's language: worded from the rule
// that matched, or the link and where it leads (shared/scans/exclusion.ts), or the
// core's English sentence for a record written before the core recorded the
// parameters. A path (and the sentence quoting it) is shown through displayName(), like every path.
import { displayName } from '../../shared/display-name.ts';
import { exclusionParamsSchema, isExclusionReason, LINK_OUTSIDE, linkOutsideParamsSchema } from '../../shared/scans/exclusion.ts';
import type { RecordError } from '../../shared/scans/record.ts';
import { formatSize } from '../i18n/format.ts';
import type { Translator } from '../i18n/messages.ts';

export function exclusionText({ t, locale }: Pick<Translator, 't' | 'locale'>, error: RecordError): string {
  const parsed = exclusionParamsSchema.safeParse(error.params);
  if (!isExclusionReason(error.code) || !parsed.success) return displayName(error.message);
  const params = parsed.data;
  if ('limit' in params) {
    if (error.code !== 'over_auto_scan_size') return error.message;
    const settings = t(params.scope === 'global' ? 'exclusion.settingsGlobal' : 'exclusion.settingsFolder');
    const limit = formatSize(locale, params.limit);
    return params.size === undefined ? t('exclusion.sizeUnknown', { limit, settings }) : t('exclusion.size', { size: formatSize(locale, params.size), limit, settings });
  }
  const whose =
    params.scope === 'saved' ? t('exclusion.whoseSaved', { name: displayName(params.name) }) : t(params.scope === 'global' ? 'exclusion.whoseGlobal' : 'exclusion.whoseFolder');
  const folder = params.target === 'folder';
  switch (error.code) {
    case 'excluded_path':
      return t(folder ? 'exclusion.pathFolder' : 'exclusion.path', { rule: displayName(params.rule), whose });
    case 'excluded_glob':
      return t(folder ? 'exclusion.globFolder' : 'exclusion.glob', { rule: displayName(params.rule), whose });
    case 'excluded_extension':
      return t('exclusion.extension', { extension: displayName(params.rule.replace(/^\.+/, '')), whose });
    case 'over_auto_scan_size':
      return error.message;
  }
}

/** A link met in a folder that leads out of it, not followed: the link and its target. */
export function linkOutsideText({ t }: Pick<Translator, 't'>, error: RecordError): string {
  const parsed = linkOutsideParamsSchema.safeParse(error.params);
  if (error.code !== LINK_OUTSIDE || !parsed.success) return displayName(error.message);
  return t('skip.linkOutside', { path: displayName(parsed.data.path), target: displayName(parsed.data.target) });
}

// Actions on the ticked scans, shown while some are ticked: each button names
// how many of them it applies to (move to quarantine: threats left in place;
// restore / allow / delete permanently: files in quarantine; send: scans
// waiting for upload consent). What the action does not apply to is left alone.
import type { ReactElement } from 'react';
import { consentHostLabel } from '../../shared/settings/protection.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { remoteServiceOrigin } from '../../shared/settings/folder-route.ts';
import { deletePermanently, moveToQuarantine, restoreMany, sendWaiting } from '../quarantine/quarantine-actions.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { bulkGroups } from './bulk-groups.ts';

export function BulkBar(): ReactElement | null {
  const { t } = useTranslator();
  const checked = useVerdict((state) => state.checked);
  const records = useVerdict((state) => state.records);
  // The map is mutated in place; its version says when to read it again.
  useVerdict((state) => state.recordsVersion);
  const clear = useVerdict((state) => state.clearChecked);
  // Scans waiting for consent are bound for the remote service set up (the default, or a folder's).
  const origin = useVerdict((state) => (state.settings ? remoteServiceOrigin(state.settings) : null));
  const ticked = [...checked].flatMap((id) => records.get(id) ?? []);
  if (ticked.length === 0) return null;
  const groups = bulkGroups(ticked);
  const entryIds = groups.inQuarantine.map((record) => record.quarantineId);

  return (
    <div className="bulk" role="toolbar" aria-label={t('bulk.label')} data-testid="bulk-bar">
      <span className="bulk__count">{t('bulk.count', { count: ticked.length })}</span>
      {groups.quarantinable.length > 0 ? (
        <button type="button" className="button button--small button--danger" onClick={() => void moveToQuarantine(groups.quarantinable).then(clear)}>
          {t('bulk.quarantine', { count: groups.quarantinable.length })}
        </button>
      ) : null}
      {entryIds.length > 0 ? (
        <>
          <button type="button" className="button button--small" onClick={() => void restoreMany(entryIds, 'restore').then(clear)}>
            {t('bulk.restore', { count: entryIds.length })}
          </button>
          <button type="button" className="button button--small" onClick={() => void restoreMany(entryIds, 'allow').then(clear)}>
            {t('bulk.allow', { count: entryIds.length })}
          </button>
          <button type="button" className="button button--small button--danger" onClick={() => void deletePermanently(entryIds).then(clear)}>
            {t('bulk.delete', { count: entryIds.length })}
          </button>
        </>
      ) : null}
      {groups.waiting.length > 0 && origin ? (
        <button type="button" className="button button--small button--primary" onClick={() => void sendWaiting(groups.waiting).then(clear)}>
          {t('bulk.send', { count: groups.waiting.length, host: consentHostLabel(origin) })}
        </button>
      ) : null}
      <button type="button" className="button button--small button--quiet" onClick={clear}>
        {t('bulk.clear')}
      </button>
    </div>
  );
}

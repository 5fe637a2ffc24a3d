// Allowing a threat's content without quarantine, and taking it off the allowed list.
import type { CoreApi } from '../../shared/bridge/api.ts';
import { err, ok } from '../../shared/result.ts';
import { IN_QUARANTINE, updateRecord, type ThreatState } from './threat-state.ts';

type AllowListActions = Pick<CoreApi['quarantine'], 'allowRecord' | 'allowed' | 'revokeAllowed'>;

export function allowListActions(state: ThreatState): AllowListActions {
  const { history, quarantine } = state;
  return {
    async allowRecord(recordId) {
      const record = history.get(recordId);
      if (!record) return err('not_found', 'There is no scan with this id.');
      if (record.status !== 'completed' || record.safe !== false || record.sha256 === null) {
        return err('invalid_state', 'Only a file judged unsafe can be allowed.', { cause: 'not_unsafe' });
      }
      if (IN_QUARANTINE.has(record.disposition)) {
        return err('invalid_state', 'This file is in quarantine: allow it from there (it is restored at the same time).', { cause: 'in_quarantine' });
      }
      const allowed = quarantine.allowContent({ sha256: record.sha256, fileName: record.fileName, recordId: record.id });
      if (allowed.ok) updateRecord(state, record.id, { disposition: 'allowed', allowedBy: 'content' });
      return allowed;
    },
    allowed: async () => ok(quarantine.allowedContent()),
    async revokeAllowed(sha256) {
      if (typeof sha256 !== 'string' || !quarantine.revokeAllowed(sha256)) return err('not_found', 'This content is not on the allowed list.', { cause: 'not_allowed' });
      // Those scans read as threats again; a file that came back from quarantine stays "restored".
      history.transaction(() => {
        for (const record of history.withDisposition('allowed', { sha256 })) {
          // One its detection names allow stays allowed: that rule is taken off on its own (threat-allow-names.ts).
          if (record.allowedBy === 'name') continue;
          updateRecord(state, record.id, { disposition: record.quarantineId ? 'restored' : null });
        }
      });
      return ok(null);
    },
  };
}

// The quarantine as the window and the CLI read it, with what the last recheck said of each entry:
// `noLongerDetectedAt`, when the signatures in use found nothing in it any more (its Restore is then
// the user's choice; Verdict never restores it by itself).
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { QuarantineRecheck } from './quarantine-recheck.ts';

export function withRecheckNotes(api: CoreApi['quarantine'], recheck: () => Pick<QuarantineRecheck, 'noLongerDetected'>): CoreApi['quarantine'] {
  const noted = (entries: QuarantineEntry[]): QuarantineEntry[] => {
    const missed = new Map(recheck().noLongerDetected().map(({ entry, judgement }) => [entry.id, new Date(judgement.checkedMs).toISOString()]));
    return missed.size === 0 ? entries : entries.map((entry) => (missed.has(entry.id) ? { ...entry, noLongerDetectedAt: missed.get(entry.id) } : entry));
  };
  return {
    ...api,
    list: async (options) => {
      const result = await api.list(options);
      return result.ok ? { ok: true, value: noted(result.value) } : result;
    },
    forRecord: async (recordId) => {
      const result = await api.forRecord(recordId);
      return result.ok && result.value ? { ok: true, value: noted([result.value])[0] ?? result.value } : result;
    },
  };
}

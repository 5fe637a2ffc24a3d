// Allowing a detection name (issue 28 §1): a verdict whose every finding has an allowed name reads
// "allowed (by detection name)" (threat-response.ts decides it for new verdicts). Allowing a name
// does the same to the history's threats it now covers; taking it off makes the records it allowed
// threats again, as taking allowed content off does (threat-allow-list.ts).
import type { CoreApi, NameAllowPreview } from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import type { Disposition, ScanRecord } from '../../shared/scans/record.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { everyNameAllowed } from '../quarantine/threat-response.ts';
import { IN_QUARANTINE, updateRecord, type ThreatState } from './threat-state.ts';

type AllowNameActions = Pick<CoreApi['quarantine'], 'allowedNames' | 'nameAllowPreview' | 'allowName' | 'revokeAllowedName'>;

/** How many of the history's rows with one name are looked at: the count and the change stay bounded. */
export const HISTORY_NAME_SCAN_LIMIT = 10_000;

/** Threats a name may allow: not allowed yet, not in quarantine, and not deleted (that file is gone). */
const CHANGEABLE: ReadonlySet<Disposition | null> = new Set([null, 'quarantine_failed', 'restored']);

/** Saves the list of allowed names (the settings store's update). */
export type SaveAllowedNames = (names: string[]) => Promise<Result<Settings>>;

export function allowNameActions(state: ThreatState, save: SaveAllowedNames): AllowNameActions {
  const names = () => state.settings().allowedDetectionNames;
  return {
    allowedNames: async () => ok([...names()]),
    nameAllowPreview: async (name) => ok(preview(state, name, new Set([...names(), name]))),
    async allowName(name) {
      const next = names().includes(name) ? [...names()] : [...names(), name];
      const saved = await save(next);
      if (!saved.ok) return saved;
      const allowed = new Set(next);
      let changed = 0;
      state.history.transaction(() => {
        for (const record of covered(state, name, allowed).allowed) {
          if (updateRecord(state, record.id, { disposition: 'allowed', allowedBy: 'name' })) changed++;
        }
      });
      return ok({ names: next, changed });
    },
    async revokeAllowedName(name) {
      if (!names().includes(name)) return err('not_found', 'This detection name is not on the allowed list.', { cause: 'not_allowed' });
      const next = names().filter((allowed) => allowed !== name);
      const saved = await save(next);
      if (!saved.ok) return saved;
      let changed = 0;
      // The records this name allowed read as threats again; a file that came back from quarantine stays "restored".
      state.history.transaction(() => {
        for (const record of state.history.withFindingName(name, HISTORY_NAME_SCAN_LIMIT)) {
          if (record.disposition !== 'allowed' || record.allowedBy !== 'name') continue;
          const patch = record.quarantineId ? { disposition: 'restored' as const, allowedBy: null } : { disposition: null, allowedBy: null };
          if (updateRecord(state, record.id, patch)) changed++;
        }
      });
      return ok({ names: next, changed });
    },
  };
}

/** The history's threats with this name: those every allowed name would cover, and those in quarantine (left there). */
function covered(state: ThreatState, name: string, allowed: ReadonlySet<string>): { allowed: ScanRecord[]; inQuarantine: number; atLeast: boolean } {
  const rows = state.history.withFindingName(name, HISTORY_NAME_SCAN_LIMIT);
  const result = { allowed: [] as ScanRecord[], inQuarantine: 0, atLeast: rows.length >= HISTORY_NAME_SCAN_LIMIT };
  for (const record of rows) {
    if (IN_QUARANTINE.has(record.disposition)) result.inQuarantine++;
    else if (!CHANGEABLE.has(record.disposition ?? null)) continue;
    else if (everyNameAllowed(record.findings, (finding) => allowed.has(finding))) result.allowed.push(record);
  }
  return result;
}

function preview(state: ThreatState, name: string, allowed: ReadonlySet<string>): NameAllowPreview {
  const found = covered(state, name, allowed);
  return { files: found.allowed.length, inQuarantine: found.inQuarantine, atLeast: found.atLeast };
}

// Allowing a detection name (issue 28 §1) from a threat's detail, and taking one off (the detail or
// Settings): the confirmation says how many files in the history it would change, as the core counts them.
import { displayName } from '../../shared/display-name.ts';
import { detectionNameSchema } from '../../shared/settings/settings.ts';
import { api, call } from '../bridge/api.ts';
import { confirmAction } from '../dialogs/ask.ts';
import { verdictStore } from '../store/store.ts';

const notify = (...args: Parameters<ReturnType<typeof verdictStore.getState>['notify']>): void => verdictStore.getState().notify(...args);

/** Asks with the history's count, then allows the name; true when it was allowed. */
export async function allowDetectionName(name: string): Promise<boolean> {
  const preview = await call(api.quarantine.nameAllowPreview(name));
  if (!preview) return false;
  const shown = displayName(name);
  const sure = await confirmAction({
    title: 'allowName.title',
    body: 'allowName.body',
    params: { name: shown, count: preview.files, inQuarantine: preview.inQuarantine },
    confirm: 'allowName.confirm',
  });
  if (!sure) return false;
  const done = await call(api.quarantine.allowName(name));
  if (done) notify('info', 'allowName.done', { name: shown, count: done.changed });
  return done !== undefined;
}

export async function stopAllowingName(name: string): Promise<boolean> {
  const done = (await call(api.quarantine.revokeAllowedName(name))) !== undefined;
  if (done) notify('info', 'allowName.revoked', { name: displayName(name) });
  return done;
}

/** A record's detection names that can be allowed (one line, not too long), each once, in the order found. */
export function detectionNames(record: { findings: ReadonlyArray<{ name: string }> }): string[] {
  return [...new Set(record.findings.map((finding) => finding.name).filter((name) => detectionNameSchema.safeParse(name).success))];
}

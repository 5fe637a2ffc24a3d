// "Update signatures now" in the core: Verdict's own database folder only. A clamd
// whose signatures the system keeps (or a remote service) is answered, not touched.
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { SignatureUpdateOutcome } from '../../shared/engine/protection-view.ts';
import { reloadAndMark } from '../engine/own-clamd/reload-and-mark.ts';
import { updateSignatures, type UpdateSignaturesResult } from '../engine/freshclam/run-freshclam.ts';
import { updateFeeds } from '../feeds/update-feeds.ts';
import { endpointOfLabel } from '../engine/live/live-state.ts';

export interface SignatureUpdateInput {
  dataDir: string;
  status: ProtectionStatus | null;
  remote: boolean;
  freshclamPath?: string | null;
  mirror?: string;
  maxAttempts?: number;
  onProgress(line: string): void;
  /** freshclam's own result, when it ran (the automatic schedule reads its cool-down from it). */
  onResult?(result: UpdateSignaturesResult): void;
}

export async function runSignatureUpdate(input: SignatureUpdateInput): Promise<SignatureUpdateOutcome> {
  const at = () => new Date().toISOString();
  if (input.remote) return { code: 'remote_service', params: {}, at: at() };
  const source = input.status?.engine.source;
  if (source === 'system' || source === 'configured' || source === 'found') {
    return { code: 'system_database', params: { where: input.status?.engine.where ?? '' }, at: at() };
  }
  // Only a clamd that loads Verdict's own folder is reloaded after an update.
  const where = input.status?.engine.where ?? '';
  const endpoint = source === 'own' && /^(unix|tcp):/.test(where) ? endpointOfLabel(where) : null;
  const result = await updateSignatures({
    dataDir: input.dataDir,
    ...(input.freshclamPath !== undefined ? { freshclamPath: input.freshclamPath } : {}),
    ...(input.mirror !== undefined ? { mirror: input.mirror } : {}),
    ...(input.maxAttempts !== undefined ? { maxAttempts: input.maxAttempts } : {}),
    onProgress: input.onProgress,
    // RELOAD, marked once clamd uses the new databases (the signature identity trusts the folder only as clamd last read it).
    ...(endpoint ? { reload: async () => void (await reloadAndMark(input.dataDir, endpoint)) } : {}),
  });
  input.onResult?.(result);
  // The extra feeds follow each update of Verdict's own folder, whatever freshclam managed (offline it fails).
  // Not told as progress: the window shows progress lines as freshclam's words; each feed's health is in its list.
  await updateFeeds(input.dataDir).catch(() => undefined);
  return { ...updateOutcome(result), at: at() };
}

/** freshclam's outcome (or why it did not run) as a code and params the UI words. */
export function updateOutcome(result: UpdateSignaturesResult): Omit<SignatureUpdateOutcome, 'at'> {
  if (!result.ok) return { code: result.problem, params: { detail: result.detail } };
  const outcome = result.outcome;
  switch (outcome.kind) {
    case 'updated':
    case 'current':
      return { code: outcome.kind, params: outcome.version === null ? {} : { version: outcome.version } };
    case 'cool_down':
    case 'mirror_refused':
      return { code: outcome.kind, params: outcome.until === null ? {} : { until: outcome.until } };
    default:
      return { code: outcome.kind, params: { detail: outcome.detail } };
  }
}

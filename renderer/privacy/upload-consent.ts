// Asks before a manual scan sends files to a remote service ("This file will be
// sent to <host>"), once per batch, with "don't ask again" remembered per host
// in the settings. The core holds back what was not agreed to (a backstop), so
// this is where the user gives the consent the core needs.
import type { Settings } from '../../shared/settings/settings.ts';
import { remoteServiceOrigin, uploadOriginFor } from '../../shared/settings/folder-route.ts';
import { consentHostLabel, needsUploadConsent } from '../../shared/settings/protection.ts';
import { askUploadConsent } from '../dialogs/ask.ts';
import { settingsSettled, updateSettings } from '../settings/settings-actions.ts';
import { verdictStore } from '../store/store.ts';

/** The origin of the configured remote service (what records and consent name), or null for the built-in one. */
export function remoteOrigin(settings: Pick<Settings, 'backend'> | null): string | null {
  if (settings?.backend.kind !== 'remote') return null;
  try {
    return new URL(settings.backend.baseUrl).origin;
  } catch {
    return null;
  }
}

/** The name shown for a path: its last part. */
const nameOf = (path: string): string => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;

export type Consent = { go: false } | { go: true; consent?: string };

/**
 * Whether files may go to the service now, asking the user if the settings say so.
 * `consent` is the origin agreed to (sent with the submission); absent when no question was needed.
 * `force` asks even when the settings would not (scans the core is holding for consent).
 */
export async function uploadConsent(paths: readonly string[], options: { force?: boolean } = {}): Promise<Consent> {
  // A drop in the first moments after start: the settings are still on their way, and the question depends on them.
  if (!verdictStore.getState().settings) await settingsSettled();
  const state = verdictStore.getState();
  // The folders as last reported by watch events (fresher than the settings read at start).
  const settings = state.settings ? { ...state.settings, watchedFolders: state.watched.map((status) => status.folder) } : null;
  // Settings that could not be read: the core still holds what needs consent (its backstop), and the detail asks.
  if (!settings) return { go: true };
  // Only files that would leave the machine count: a watched folder kept on the built-in engine keeps its files here.
  const leaving = options.force ? paths : paths.filter((path) => uploadOriginFor(path, settings) !== null);
  const origin = remoteServiceOrigin(settings);
  if (origin === null || leaving.length === 0) return { go: true };
  if (!options.force && !needsUploadConsent(settings, origin)) return { go: true };
  if (options.force && !needsUploadConsent(settings, origin)) return { go: true, consent: origin };
  const answer = await askUploadConsent({ host: consentHostLabel(origin), count: leaving.length, name: leaving.length > 0 ? nameOf(leaving[0]!) : null });
  if (!answer) return { go: false };
  if (answer.dontAsk) {
    const hosts = verdictStore.getState().settings?.remoteUploadConsentHosts ?? [];
    // Saved first: then the core already knows when the files arrive (and lets waiting ones go).
    await updateSettings({ remoteUploadConsentHosts: [...new Set([...hosts, origin])] });
  }
  return { go: true, consent: origin };
}

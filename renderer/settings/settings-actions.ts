// Settings and watched-folder changes: call the core, then store what it answers
// (the core's answer is the truth, not what the form sent).
import type { WatchedFolderInput, WatchedFolderPatch, WatchedFolderStatus } from '../../shared/bridge/api.ts';
import type { Result } from '../../shared/result.ts';
import type { SettingsPatch } from '../../shared/settings/settings.ts';
import { api, call } from '../bridge/api.ts';
import { verdictStore } from '../store/store.ts';

/** The settings loads and changes asked for and not answered yet (with the key status that follows a new backend). */
let pending: Promise<unknown> = Promise.resolve();

const track = <T>(work: Promise<T>): Promise<T> => {
  pending = Promise.allSettled([pending, work]);
  return work;
};

export function updateSettings(patch: SettingsPatch): Promise<boolean> {
  return track(saveSettings(patch));
}

/**
 * Resolves once every settings load and change asked for so far is answered. What belongs to the
 * configured service (its API key, a connection test) waits for it, so a key saved right
 * after Apply goes to the address just applied, not the one before; and the upload question
 * waits for the first load instead of being skipped in the first moments after start.
 */
export async function settingsSettled(): Promise<void> {
  await pending;
}

async function saveSettings(patch: SettingsPatch): Promise<boolean> {
  const settings = await call(api.settings.update(patch));
  if (!settings) return false;
  verdictStore.getState().setSettings(settings);
  // The key belongs to the configured service, so its status follows the backend.
  if (patch.backend) await refreshKeyStatus();
  return true;
}

export function refreshSettings(): Promise<void> {
  return track(
    (async () => {
      const settings = await call(api.settings.get());
      if (settings) verdictStore.getState().setSettings(settings);
    })(),
  );
}

export async function refreshKeyStatus(): Promise<void> {
  const status = await call(api.settings.keyStatus());
  if (status) verdictStore.getState().setKeyStatus(status);
}

/**
 * Stores a watch call's answer unless a change event came in meanwhile: events and
 * answers travel separately, and the core emits an event for every change, so an
 * event that overtook the answer is at least as new as it.
 */
async function applyWatch(pending: Promise<Result<WatchedFolderStatus[]>>): Promise<void> {
  const revision = verdictStore.getState().watchedRevision;
  const folders = await call(pending);
  if (folders && verdictStore.getState().watchedRevision === revision) verdictStore.getState().setWatched(folders);
}

export async function addWatchedFolder(): Promise<void> {
  const paths = await call(api.files.pick('folder'));
  for (const path of paths ?? []) {
    const input: WatchedFolderInput = { path };
    await applyWatch(api.watch.add(input));
  }
}

/** Shows the change at once (a checkbox must not lag behind a click), then stores the core's answer. */
export function updateWatchedFolder(id: string, patch: WatchedFolderPatch): Promise<void> {
  const { watched, setWatched } = verdictStore.getState();
  setWatched(watched.map((status) => (status.folder.id === id ? { ...status, folder: { ...status.folder, ...patch } } : status)));
  return applyWatch(api.watch.update(id, patch));
}
export const removeWatchedFolder = (id: string): Promise<void> => applyWatch(api.watch.remove(id));

export async function setAllWatchingPaused(paused: boolean): Promise<void> {
  await applyWatch(api.watch.setAllPaused(paused));
  await refreshSettings();
}

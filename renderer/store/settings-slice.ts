// The settings as the core reports them, the API key's status (never the key),
// the OS language and the watched folders.
import type { StateCreator } from 'zustand/vanilla';
import type { KeyStatus, WatchedFolderStatus } from '../../shared/bridge/api.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import type { Locale } from '../i18n/messages.ts';
import type { VerdictStore } from './store.ts';

export interface SettingsSlice {
  settings: Settings | null;
  keyStatus: KeyStatus | null;
  systemLanguage: Locale;
  watched: WatchedFolderStatus[];
  /** Counts watch.onChange events, so an older call result never overwrites a newer event. */
  watchedRevision: number;

  setSettings(settings: Settings): void;
  setKeyStatus(status: KeyStatus): void;
  setSystemLanguage(language: Locale): void;
  setWatched(folders: WatchedFolderStatus[]): void;
  receiveWatchChange(folders: WatchedFolderStatus[]): void;
}

export const createSettingsSlice: StateCreator<VerdictStore, [], [], SettingsSlice> = (set) => ({
  settings: null,
  keyStatus: null,
  systemLanguage: 'en',
  watched: [],
  watchedRevision: 0,

  setSettings(settings) {
    set({ settings });
  },
  setKeyStatus(keyStatus) {
    set({ keyStatus });
  },
  setSystemLanguage(systemLanguage) {
    set({ systemLanguage });
  },
  setWatched(watched) {
    set({ watched });
  },
  receiveWatchChange(watched) {
    set((state) => ({ watched, watchedRevision: state.watchedRevision + 1 }));
  },
});

/** The language the UI speaks: the user's choice, or the OS language for `system`. */
export function selectLocale(state: Pick<SettingsSlice, 'settings' | 'systemLanguage'>): Locale {
  const chosen = state.settings?.language;
  return chosen === 'en' || chosen === 'de' ? chosen : state.systemLanguage;
}

// What the user is looking at: the section, the list filters, the keyboard
// cursor in the list, the selected scan and the one-line notice.
import type { StateCreator } from 'zustand/vanilla';
import { NO_FILTERS, type Filters } from '../scans/filters.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';
import type { VerdictStore } from './store.ts';

export type Section = 'scans' | 'settings';

/** A message for the status line, kept as a key so it follows a language change. */
export interface Notice {
  kind: 'info' | 'error';
  key: MessageKey;
  params?: MessageParams;
  /** Distinguishes two equal notices in a row (so the live region speaks again). */
  serial: number;
}

export interface ViewSlice {
  section: Section;
  filters: Filters;
  /** Keyboard cursor in the list (index into `ids`). */
  activeIndex: number;
  selectedId: string | null;
  notice: Notice | null;

  showSection(section: Section): void;
  setFilters(patch: Partial<Filters>): void;
  setActiveIndex(index: number): void;
  select(id: string | null): void;
  notify(kind: Notice['kind'], key: MessageKey, params?: MessageParams): void;
  dismissNotice(): void;
}

export const createViewSlice: StateCreator<VerdictStore, [], [], ViewSlice> = (set, get) => ({
  section: 'scans',
  filters: NO_FILTERS,
  activeIndex: 0,
  selectedId: null,
  notice: null,

  showSection(section) {
    set({ section });
  },
  setFilters(patch) {
    const filters = { ...get().filters, ...patch };
    set({ filters, activeIndex: 0 });
  },
  setActiveIndex(index) {
    const last = get().ids.length - 1;
    set({ activeIndex: Math.max(0, Math.min(index, last)) });
  },
  select(selectedId) {
    set({ selectedId });
  },
  notify(kind, key, params) {
    set({ notice: { kind, key, ...(params ? { params } : {}), serial: (get().notice?.serial ?? 0) + 1 } });
  },
  dismissNotice() {
    set({ notice: null });
  },
});

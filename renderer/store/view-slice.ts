// What the user is looking at: the section, the list filters, the keyboard
// cursor in the list, the selected scan, the scans ticked for a bulk action,
// the one-line notice and the open dialog (at most one).
import type { StateCreator } from 'zustand/vanilla';
import { NO_FILTERS, type Filters } from '../scans/filters.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';
import type { VerdictStore } from './store.ts';
import type { DialogRequest } from '../dialogs/dialog-request.ts';
import type { ToolSaid } from '../app/tool-said.ts';

export type Section = 'scans' | 'overview' | 'settings';

/** A message for the status line, kept as a key so it follows a language change. */
export interface Notice {
  kind: 'info' | 'error';
  key: MessageKey;
  params?: MessageParams;
  /** What a program said (the core's English sentence), shown under the notice's own words. */
  said?: ToolSaid;
  /** Distinguishes two equal notices in a row (so the live region speaks again). */
  serial: number;
}

export interface ViewSlice {
  section: Section;
  filters: Filters;
  /** Keyboard cursor in the list (index into `ids`). */
  activeIndex: number;
  selectedId: string | null;
  /** Scans ticked in the list (checkboxes, Space, Shift+arrows) for a bulk action. */
  checked: ReadonlySet<string>;
  /** Where a Shift range starts (index into `ids`). */
  checkAnchor: number | null;
  notice: Notice | null;
  dialog: DialogRequest | null;

  showSection(section: Section): void;
  setFilters(patch: Partial<Filters>): void;
  setActiveIndex(index: number): void;
  select(id: string | null): void;
  notify(kind: Notice['kind'], key: MessageKey, params?: MessageParams, said?: ToolSaid): void;
  dismissNotice(): void;
  /** Ticks or unticks one scan; the anchor for a Shift range moves there. */
  toggleChecked(id: string, index: number): void;
  /** Ticks every loaded scan from the anchor to `index` (Shift+click, Shift+arrows). */
  checkRange(index: number): void;
  setChecked(ids: Iterable<string>): void;
  clearChecked(): void;
  openDialog(dialog: DialogRequest): void;
  closeDialog(): void;
}

export const createViewSlice: StateCreator<VerdictStore, [], [], ViewSlice> = (set, get) => ({
  section: 'scans',
  filters: NO_FILTERS,
  activeIndex: 0,
  selectedId: null,
  checked: new Set<string>(),
  checkAnchor: null,
  notice: null,
  dialog: null,

  showSection(section) {
    set({ section });
  },
  setFilters(patch) {
    const filters = { ...get().filters, ...patch };
    // What is ticked may not be in the new list: start afresh.
    set({ filters, activeIndex: 0, checked: new Set(), checkAnchor: null });
  },
  setActiveIndex(index) {
    const last = get().ids.length - 1;
    set({ activeIndex: Math.max(0, Math.min(index, last)) });
  },
  select(selectedId) {
    set({ selectedId });
  },
  notify(kind, key, params, said) {
    set({ notice: { kind, key, ...(params ? { params } : {}), ...(said ? { said } : {}), serial: (get().notice?.serial ?? 0) + 1 } });
  },
  dismissNotice() {
    set({ notice: null });
  },
  toggleChecked(id, index) {
    const checked = new Set(get().checked);
    if (checked.has(id)) checked.delete(id);
    else checked.add(id);
    set({ checked, checkAnchor: index });
  },
  checkRange(index) {
    const { ids, checkAnchor } = get();
    const from = Math.max(0, Math.min(checkAnchor ?? index, index));
    const to = Math.min(ids.length - 1, Math.max(checkAnchor ?? index, index));
    const checked = new Set(get().checked);
    for (let i = from; i <= to; i++) {
      const id = ids[i];
      if (id !== undefined) checked.add(id);
    }
    set({ checked, checkAnchor: checkAnchor ?? index });
  },
  setChecked(ids) {
    set({ checked: new Set(ids) });
  },
  clearChecked() {
    set({ checked: new Set(), checkAnchor: null });
  },
  openDialog(dialog) {
    // A new dialog replaces one still open; the old one counts as cancelled.
    get().dialog?.resolve(null);
    set({ dialog });
  },
  closeDialog() {
    set({ dialog: null });
  },
});

// One store combined from typed slices (zustand's slices pattern). Vanilla, so
// unit tests drive it without React; components use ./use-verdict.ts.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createJobsSlice, type JobsSlice } from './jobs-slice.ts';
import { createProtectionSlice, type ProtectionSlice } from './protection-slice.ts';
import { createScansSlice, type ScansSlice } from './scans-slice.ts';
import { createSettingsSlice, type SettingsSlice } from './settings-slice.ts';
import { createViewSlice, type ViewSlice } from './view-slice.ts';

export type VerdictStore = ScansSlice & ViewSlice & SettingsSlice & ProtectionSlice & JobsSlice;

export function createVerdictStore(): StoreApi<VerdictStore> {
  return createStore<VerdictStore>()((...a) => ({
    ...createScansSlice(...a),
    ...createViewSlice(...a),
    ...createSettingsSlice(...a),
    ...createProtectionSlice(...a),
    ...createJobsSlice(...a),
  }));
}

/** The app's store. */
export const verdictStore = createVerdictStore();

/** Back to the initial state (tests); the record map is recreated because it is mutated in place. */
export function resetStore(store: StoreApi<VerdictStore> = verdictStore): void {
  store.setState({ ...store.getInitialState(), records: new Map() }, true);
}

// Shows one scan: the list section, the scan selected (fetched if it is not
// loaded), and the cursor on its row when the row is in the loaded list.
import { api } from '../bridge/api.ts';
import { verdictStore } from '../store/store.ts';

export async function showScan(id: string): Promise<void> {
  const store = verdictStore.getState();
  store.showSection('scans');
  if (!store.records.has(id)) {
    const result = await api.scans.get(id);
    if (result.ok) verdictStore.getState().putRecord(result.value);
  }
  const index = verdictStore.getState().ids.indexOf(id);
  if (index >= 0) verdictStore.getState().setActiveIndex(index);
  verdictStore.getState().select(id);
}

// What the protection controls do: load the view and follow its changes, look
// again, and update the signatures (progress and outcome arrive as view changes).
import { api, call } from '../bridge/api.ts';
import { verdictStore } from '../store/store.ts';

export function followProtection(): void {
  api.protection.onChange((view) => verdictStore.getState().setProtection(view));
  void refreshProtection('status');
}

export async function refreshProtection(how: 'status' | 'refresh' = 'refresh'): Promise<void> {
  const view = await call(how === 'status' ? api.protection.status() : api.protection.refresh());
  if (view) verdictStore.getState().setProtection(view);
}

export async function updateSignatures(): Promise<void> {
  await call(api.protection.updateSignatures());
  // The outcome is in the view the core sends; ask once more in case that event was missed.
  await refreshProtection('status');
}

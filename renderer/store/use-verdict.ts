// React access to the store: select one field per call; derive with useShallow.
import { useStore } from 'zustand';
import { verdictStore, type VerdictStore } from './store.ts';

export function useVerdict<T>(selector: (state: VerdictStore) => T): T {
  return useStore(verdictStore, selector);
}

// The protection view as the core reports it (status line, Settings › Malware engine).
import type { StateCreator } from 'zustand/vanilla';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import type { VerdictStore } from './store.ts';

export interface ProtectionSlice {
  protection: ProtectionView | null;
  setProtection(view: ProtectionView): void;
}

export const createProtectionSlice: StateCreator<VerdictStore, [], [], ProtectionSlice> = (set) => ({
  protection: null,
  setProtection(protection) {
    set({ protection });
  },
});

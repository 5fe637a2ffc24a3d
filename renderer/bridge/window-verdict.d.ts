// `window.verdict` is the preload's API; its type is the shared contract, not a copy.
import type { VerdictApi } from '../../shared/bridge/api.ts';

declare global {
  interface Window {
    readonly verdict: VerdictApi;
  }
}

export {};

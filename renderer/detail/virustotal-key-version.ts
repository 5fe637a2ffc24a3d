// Tells an open detail that the VirusTotal key was added, replaced or removed, so it asks
// again ("add a key" or "refused" would otherwise stay until another file is opened).
import { useSyncExternalStore } from 'react';

let version = 0;
const listeners = new Set<() => void>();

export function virusTotalKeyChanged(): void {
  version++;
  for (const listener of listeners) listener();
}

export function useVirusTotalKeyVersion(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
}

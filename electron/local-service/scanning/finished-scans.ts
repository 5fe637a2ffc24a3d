// The service's doorbell: which scans that nobody was waiting for (async ones,
// sync ones answered 408) have just finished, told to whoever listens in the
// same process, the ids of one turn of the event loop together. A client that
// follows such a scan by polling can then ask at once instead of at its next
// backoff step (up to seconds later); it still reads the scan over HTTP, so the
// client's code path is the one it uses for any service. Without a listener
// nothing is kept.

export interface FinishedScans {
  /** The runner's onFinished. */
  add(scanId: string): void;
  /** Each listener hears every batch from now on; the result stops it. */
  listen(listener: (scanIds: readonly string[]) => void): () => void;
}

export function createFinishedScans(): FinishedScans {
  const listeners = new Set<(scanIds: readonly string[]) => void>();
  let pending: string[] = [];
  const deliver = () => {
    const batch = pending;
    pending = [];
    for (const listener of listeners) {
      try {
        listener(batch);
      } catch {
        // A listener's failure must not keep the others from hearing it; polling still finds the scans.
      }
    }
  };
  return {
    add(scanId) {
      if (listeners.size === 0) return;
      if (pending.length === 0) setImmediate(deliver);
      pending.push(scanId);
    },
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

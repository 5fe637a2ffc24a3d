// Turns the poller's callbacks (one stream of updates for every scan) into one
// promise per followed scan, which is what the pipeline awaits.
import type { Scan } from '../../shared/service-contract/scan.ts';
import { ServiceError } from '../service-client/service-error.ts';

interface Waiter {
  resolve: (scan: Scan) => void;
  reject: (error: unknown) => void;
}

export interface FollowRegistry {
  /** Resolves with the terminal scan; `start`/`stop` add it to and remove it from the poller. */
  follow(scanId: string, signal: AbortSignal, start: () => void, stop: () => void): Promise<Scan>;
  settle(scanId: string, scan: Scan): void;
  fail(scanId: string, error: unknown): void;
  /** The backend is going away: every follow ends as aborted. */
  cancelAll(): void;
  readonly size: number;
}

export function createFollowRegistry(): FollowRegistry {
  const waiting = new Map<string, Set<Waiter>>();

  const take = (scanId: string) => {
    const waiters = waiting.get(scanId);
    waiting.delete(scanId);
    return waiters ? [...waiters] : [];
  };

  return {
    follow(scanId, signal, start, stop) {
      if (signal.aborted) return Promise.reject(new ServiceError('aborted', 'Following the scan was cancelled.'));
      return new Promise<Scan>((resolve, reject) => {
        const onAbort = () => {
          const waiters = waiting.get(scanId);
          waiters?.delete(waiter);
          if (waiters && waiters.size === 0) {
            waiting.delete(scanId);
            stop();
          }
          reject(new ServiceError('aborted', 'Following the scan was cancelled.'));
        };
        const waiter: Waiter = {
          resolve: (scan) => {
            signal.removeEventListener('abort', onAbort);
            resolve(scan);
          },
          reject: (error) => {
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        let waiters = waiting.get(scanId);
        if (!waiters) {
          waiters = new Set();
          waiting.set(scanId, waiters);
        }
        waiters.add(waiter);
        signal.addEventListener('abort', onAbort, { once: true });
        start();
      });
    },
    settle(scanId, scan) {
      for (const waiter of take(scanId)) waiter.resolve(scan);
    },
    fail(scanId, error) {
      for (const waiter of take(scanId)) waiter.reject(error);
    },
    cancelAll() {
      for (const scanId of [...waiting.keys()]) {
        for (const waiter of take(scanId)) waiter.reject(new ServiceError('aborted', 'The scanning service was switched.'));
      }
    },
    get size() {
      let n = 0;
      for (const waiters of waiting.values()) n += waiters.size;
      return n;
    },
  };
}

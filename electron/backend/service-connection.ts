// One connection to a File Scanning Service: its client, its poller, its request
// budget, and the ServicePort the pipeline uses, for one base URL and key.
import type { Language } from '../../shared/service-contract/limits.ts';
import { createRequestBudget, DEFAULT_REQUEST_BUDGET, type RequestBudget } from '../request-budget/request-budget.ts';
import { createServiceClient, type ServiceClient, type ServiceTimeouts } from '../service-client/client.ts';
import { createPoller, type Poller } from '../service-client/poller.ts';
import type { RetryPolicy } from '../service-client/retry-policy.ts';
import type { ServicePort } from '../scans/ports.ts';
import { createFollowRegistry, type FollowRegistry } from './follow-registry.ts';

/** A client, its poller and the pipeline's view of them, for one base URL and key. */
export interface ServiceConnection {
  port: ServicePort;
  client: ServiceClient;
  poller: Poller;
  budget: RequestBudget;
  /** The service says these scans have finished: followed ones are polled now, the others as soon as they are followed. */
  finished(scanIds: readonly string[]): void;
  close(): Promise<void>;
}

/** Scans told finished before the pipeline followed them (its 202 still on the way), remembered at most. */
const EARLY_FINISHED_MAX = 1024;

export function createServiceConnection(input: {
  label: string;
  baseUrl: string;
  apiKey: () => string | null;
  language?: () => Language;
  budget?: { ratePerSecond: number; burst: number };
  timeouts?: Partial<ServiceTimeouts>;
  retry?: Partial<RetryPolicy>;
  poll?: { initialDelayMs?: number; maxDelayMs?: number };
  /** The service's retention of scans the client has recorded (the embedded service's only). */
  recorded?: (scanIds: readonly string[]) => void;
}): ServiceConnection {
  const budget = createRequestBudget(input.budget ?? DEFAULT_REQUEST_BUDGET);
  let client: ServiceClient;
  try {
    client = createServiceClient({ baseUrl: input.baseUrl, apiKey: input.apiKey, language: input.language, budget, timeouts: input.timeouts, retry: input.retry });
  } catch (error) {
    budget.close();
    throw error;
  }
  const follows: FollowRegistry = createFollowRegistry();
  const poller = createPoller({
    client,
    initialDelayMs: input.poll?.initialDelayMs,
    maxDelayMs: input.poll?.maxDelayMs,
    onUpdate: (update) => {
      if (update.terminal) follows.settle(update.scanId, update.scan);
    },
    onError: (event) => {
      // A rejected key or a scan given up on ends the follow; the pipeline decides what next.
      if (event.final || event.error.kind === 'unauthorized') {
        poller.untrack(event.scanId);
        follows.fail(event.scanId, event.error);
      }
    },
  });
  const early = new Set<string>();
  const port: ServicePort = {
    label: input.label,
    async submit(file, submitOptions) {
      const resolved = await client.submitAndResolve(file, {
        mode: submitOptions.mode,
        externalReferenceId: submitOptions.externalReferenceId,
        ...(submitOptions.basicChecksOnly ? { basicChecksOnly: true } : {}),
        signal: submitOptions.signal,
        onProgress: (progress) => submitOptions.onProgress(progress.sent, progress.total),
      });
      return resolved.scan;
    },
    lookup: (ref, signal) => client.recoverByReference(ref, { signal }),
    follow: (scanId, signal) =>
      follows.follow(
        scanId,
        signal,
        () => poller.track(scanId, undefined, early.delete(scanId) ? { delayMs: 0 } : {}),
        () => poller.untrack(scanId),
      ),
    ...(input.recorded ? { recorded: input.recorded } : {}),
  };
  return {
    port,
    client,
    poller,
    budget,
    finished(scanIds) {
      for (const scanId of scanIds) {
        if (poller.wake(scanId)) continue;
        early.add(scanId);
        // The oldest first: a scan the pipeline never follows (it stopped meanwhile) is forgotten.
        if (early.size > EARLY_FINISHED_MAX) early.delete(early.values().next().value as string);
      }
    },
    async close() {
      follows.cancelAll();
      budget.close();
      await poller.stop();
      await client.close();
    },
  };
}

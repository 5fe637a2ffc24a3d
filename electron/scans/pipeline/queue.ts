// The ready line and its slots: pump() starts records while fewer than
// `concurrency` are active and fewer than `maxProcessing` are followed; a record
// whose lane is blocked moves into that lane instead. Each record's work runs
// with its own abort signal, and whatever happens the queue moves on.
import { notifyIdle, type Pipeline } from './context.ts';
import { laneBlocked, laneOf, holdInLane, takesAtOnce } from './lanes.ts';
import { forget, forgetWaitingPath, ownerOf, setOwner, type Lane, type Phase } from './memory.ts';
import { MAX_SERVICE_CONCURRENCY } from './options.ts';

export function pump(p: Pipeline): void {
  const memory = p.memory;
  if (memory.closed || !memory.started) return;
  let held: Array<[string, Lane]> | null = null;
  // The most any service may be given at once; each record's own service may take fewer (takesAtOnce).
  const ceiling = p.limits.serviceMaySay ? Math.max(p.limits.concurrency, MAX_SERVICE_CONCURRENCY) : p.limits.concurrency;
  while (memory.active < ceiling && memory.following < p.limits.maxProcessing && !memory.closed) {
    const id = memory.ready.shift();
    if (id === undefined) break;
    if (ownerOf(memory, id) !== 'ready') continue; // moved elsewhere while it waited (stale entry)
    const lane = laneOf(p, id);
    if (lane && laneBlocked(p, lane)) {
      (held ??= []).push([id, lane]);
      continue;
    }
    if (memory.active >= takesAtOnce(p, id)) {
      // Its service has all it takes: it keeps its place at the front of the line.
      memory.ready.pushFront(id);
      break;
    }
    startWork(p, id);
  }
  if (held) {
    // One transaction for the lot: a paused lane can pull thousands of records out of line at once.
    const moved = held;
    p.history.transaction(() => {
      for (const [id, lane] of moved) holdInLane(p, id, lane, lane.paused?.reason ?? null, false);
    });
  }
  notifyIdle(p);
}

function startWork(p: Pipeline, id: string): void {
  setOwner(p.memory, id, 'active');
  const tracked = p.memory.records.get(id);
  if (tracked) forgetWaitingPath(p.memory, tracked);
  runCancellable(p, id, 'active', (signal) => p.work(id, signal));
}

/** Runs a record's work with its own abort signal; whatever happens, the record is let go and the queue moves on. */
export function runCancellable(p: Pipeline, id: string, as: 'active' | 'following', work: (signal: AbortSignal) => Promise<void>): void {
  const phase: Phase = as === 'active' ? 'upload' : 'follow';
  const controller = new AbortController();
  const tracked = p.memory.records.get(id);
  if (tracked) tracked.controller = controller;
  trackPromise(
    p,
    (async () => {
      try {
        await work(controller.signal);
      } catch (error) {
        p.failed(id, error, controller.signal, phase);
      } finally {
        const record = p.memory.records.get(id);
        if (record?.controller === controller) record.controller = null;
        // Nothing took it over (it was found finished, or the pipeline is closing): nothing will pick it up again.
        if (record?.where === as) forget(p.memory, id);
        p.events.countsChanged();
        p.pump();
        notifyIdle(p);
      }
    })(),
  );
}

function trackPromise(p: Pipeline, promise: Promise<void>): void {
  p.memory.running.add(promise);
  void promise.finally(() => p.memory.running.delete(promise));
}

// Pausing and resuming: a lane pauses when its service has no (working) key or is
// not available; followed scans for it are parked. A key set, a service back, or
// another backend chosen lifts every pause and sends the records on.
import { save, type Pipeline } from './context.ts';
import { release } from './consent.ts';
import { moveReadyInto, releaseLane, workingLane } from './lanes.ts';
import { enqueue, ownerOf, placedRecords, setOwner, type AbortReason, type Lane } from './memory.ts';
import { PENDING_REASONS } from './options.ts';

export function pauseLane(p: Pipeline, lane: Lane, reason: string, message: string): void {
  if (lane.paused?.reason === reason) return;
  lane.paused = { reason, message };
  if (lane.timer) clearTimeout(lane.timer);
  lane.timer = null;
  p.log?.warn('queue paused', { reason, backend: lane.label });
  // Every record waiting for this service says why it waits; one transaction for the lot.
  p.history.transaction(() => {
    for (const id of lane.waiting) {
      if (ownerOf(p.memory, id) === 'lane') save(p, id, { pendingReason: reason });
    }
    moveReadyInto(p, lane, reason);
    for (const [id, where] of placedRecords(p.memory)) {
      if (where === 'following' && p.memory.records.get(id)?.workingAt === lane.label) park(p, id, reason);
    }
  });
}

/** A followed scan waits (still processing at the service) until the pause lifts. */
export function park(p: Pipeline, id: string, reason?: string): void {
  const controller = p.memory.records.get(id)?.controller;
  setOwner(p.memory, id, 'parked');
  save(p, id, { pendingReason: reason ?? workingLane(p, id)?.paused?.reason ?? PENDING_REASONS.awaitingApiKey });
  controller?.abort('paused' satisfies AbortReason);
}

/** Lifts every lane's pause and backoff (a key was set, a service became available) and works on. */
export function resume(p: Pipeline): void {
  if (p.memory.closed) return;
  for (const lane of p.memory.lanes.values()) {
    const wasPaused = lane.paused;
    lane.paused = null;
    lane.backoff = { attempt: 0, until: 0 };
    if (wasPaused) {
      p.log?.info('queue resumed', { reason: wasPaused.reason, backend: lane.label });
      p.history.transaction(() => {
        for (const id of lane.waiting) if (ownerOf(p.memory, id) === 'lane') save(p, id, { pendingReason: null });
      });
    }
    releaseLane(p, lane);
  }
  for (const [id, where] of placedRecords(p.memory)) {
    if (where !== 'parked') continue;
    setOwner(p.memory, id, null);
    enqueue(p.memory, id, true);
  }
  p.pump();
}

/** The backend (URL, key, kind) changed: work in flight stops and goes back in line for the new one. */
export function backendChanged(p: Pipeline): void {
  if (p.memory.closed) return;
  for (const [id, where] of placedRecords(p.memory)) {
    const tracked = p.memory.records.get(id);
    if (where === 'active' || where === 'following') tracked?.controller?.abort('backend_changed' satisfies AbortReason);
    else if (where === 'held') release(p, id);
    else if (where === 'parked' || where === 'delayed') {
      if (tracked?.retryTimer) clearTimeout(tracked.retryTimer);
      if (tracked) tracked.retryTimer = null;
      setOwner(p.memory, id, null);
      enqueue(p.memory, id, true);
    }
  }
  resume(p);
}

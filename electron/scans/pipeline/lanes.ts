// Lanes: each service's share of the queue. A record whose service is paused (no
// key, not available) or backing off waits in that service's lane, so trouble with
// one service never holds up files bound for another.
import { IdQueue } from '../id-queue.ts';
import { save, type Pipeline } from './context.ts';
import { enqueue, ownerOf, setOwner, type Lane, type Phase } from './memory.ts';
import { MAX_SERVICE_CONCURRENCY, type RecordRoute } from './options.ts';

export function laneNamed(p: Pipeline, label: string): Lane {
  let lane = p.memory.lanes.get(label);
  if (!lane) {
    lane = { label, paused: null, backoff: { attempt: 0, until: 0 }, waiting: new IdQueue(), timer: null };
    p.memory.lanes.set(label, lane);
  }
  return lane;
}

export const laneFor = (p: Pipeline, route: RecordRoute): Lane => laneNamed(p, p.options.backendLabel(route));

/** A tracked record's route, else (a record no longer held) read from history. */
function routeOf(p: Pipeline, id: string): RecordRoute | null {
  const tracked = p.memory.records.get(id);
  if (tracked) return tracked.route;
  const record = p.history.get(id);
  return record ? { path: record.path, origin: record.origin } : null;
}

/** The lane a record waits in now (its route is decided again each time: the settings may have changed). */
export function laneOf(p: Pipeline, id: string): Lane | null {
  const route = routeOf(p, id);
  return route ? laneFor(p, route) : null;
}

/** The lane of the service a record was last working with, else where it would go now. */
export function workingLane(p: Pipeline, id: string): Lane | null {
  const label = p.memory.records.get(id)?.workingAt ?? null;
  return label !== null ? laneNamed(p, label) : laneOf(p, id);
}

/**
 * How many files may be at work at once when this record starts: as many as its service says it takes
 * (the local engine: enough to keep clamd's commands in flight and batch the threads' messages), else the
 * pipeline's limit.
 */
export function takesAtOnce(p: Pipeline, id: string): number {
  const { concurrency, serviceMaySay } = p.limits;
  const route = serviceMaySay ? routeOf(p, id) : null;
  const availability = route ? p.options.service(route) : null;
  const said = availability?.ok ? availability.service.concurrency : undefined;
  return said === undefined ? concurrency : Math.max(1, Math.min(said, MAX_SERVICE_CONCURRENCY));
}

export const laneBlocked = (p: Pipeline, lane: Lane): boolean => lane.paused !== null || lane.backoff.until > p.now();

/** The record waits in its lane until the pause lifts or the backoff ends; says why when a reason is given. */
export function holdInLane(p: Pipeline, id: string, lane: Lane, reason: string | null, front: boolean): void {
  if (ownerOf(p.memory, id) !== 'ready') setOwner(p.memory, id, null);
  setOwner(p.memory, id, 'lane');
  if (front) lane.waiting.pushFront(id);
  else lane.waiting.push(id);
  if (reason !== null) save(p, id, { pendingReason: reason });
  armLaneTimer(p, lane);
}

function armLaneTimer(p: Pipeline, lane: Lane): void {
  if (lane.timer || lane.paused || p.memory.closed) return;
  // Armed even when the backoff has already ended (then for the next turn of the event loop): it can end
  // between the check that held a record and this line (a long transaction holding a big batch, a GC
  // pause), and a lane with records but no timer would keep them until something else happened.
  const wait = Math.max(0, lane.backoff.until - p.now());
  lane.timer = setTimeout(() => {
    lane.timer = null;
    releaseLane(p, lane);
  }, wait);
}

/** Everything waiting in the lane goes back to the front of the line, in its order. */
export function releaseLane(p: Pipeline, lane: Lane): void {
  if (lane.timer) clearTimeout(lane.timer);
  lane.timer = null;
  const waiting = [...lane.waiting];
  lane.waiting.clear();
  for (let i = waiting.length - 1; i >= 0; i--) {
    const id = waiting[i]!;
    if (ownerOf(p.memory, id) !== 'lane') continue;
    setOwner(p.memory, id, 'ready');
    p.memory.ready.pushFront(id);
  }
  p.pump();
}

/** Records in the ready line that belong to `lane` wait in it instead (with `reason`, where `shouldSay` agrees). */
export function moveReadyInto(p: Pipeline, lane: Lane, reason: string, shouldSay: (id: string) => boolean = () => true): void {
  const { ready } = p.memory;
  const stay: string[] = [];
  for (let id = ready.shift(); id !== undefined; id = ready.shift()) {
    if (ownerOf(p.memory, id) !== 'ready') continue;
    if (laneOf(p, id) === lane) holdInLane(p, id, lane, shouldSay(id) ? reason : null, false);
    else stay.push(id);
  }
  for (const id of stay) ready.push(id);
}

/** The service answered: its lane's backoff starts over. */
export function succeeded(p: Pipeline, label: string): void {
  const lane = p.memory.lanes.get(label);
  if (lane) lane.backoff = { attempt: 0, until: 0 };
}

export interface Trouble {
  reason: string;
  code: string;
  message: string;
  retryAfterMs?: number;
}

/**
 * A transient failure after the client's own retries: the record's service backs off (its whole lane:
 * records for other services go on), the record keeps its place.
 */
export function retryLater(p: Pipeline, id: string, phase: Phase, trouble: Trouble): void {
  const { reason, code, message } = trouble;
  const lane = workingLane(p, id) ?? laneNamed(p, 'unknown');
  const backoff = lane.backoff;
  backoff.attempt++;
  const { retryBaseMs, retryMaxMs } = p.limits;
  const exponential = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(backoff.attempt - 1, 20));
  const wait = Math.max(trouble.retryAfterMs ?? 0, Math.round(exponential * (0.5 + p.random() / 2)));
  backoff.until = Math.max(backoff.until, p.now() + wait);
  p.log?.warn('service trouble; trying again later', { id, code, waitMs: wait, attempt: backoff.attempt, backend: lane.label });
  const tracked = p.memory.records.get(id);
  if (phase === 'follow') {
    save(p, id, { pendingReason: reason, error: { code, message } });
    setOwner(p.memory, id, 'delayed');
    const timer = setTimeout(() => {
      if (tracked) tracked.retryTimer = null;
      if (ownerOf(p.memory, id) !== 'delayed' || p.memory.closed) return;
      setOwner(p.memory, id, null);
      enqueue(p.memory, id, true);
      p.pump();
    }, wait);
    if (tracked) tracked.retryTimer = timer;
    return;
  }
  if (tracked) tracked.lookupFirst = true;
  save(p, id, { status: 'queued', error: { code, message } });
  // Every record waiting for this service waits for the same reason: say so on each
  // (the UI and a one-shot CLI run rely on it).
  p.history.transaction(() => {
    holdInLane(p, id, lane, reason, true);
    moveReadyInto(p, lane, reason, (waiting) => p.history.get(waiting)?.pendingReason == null);
  });
}

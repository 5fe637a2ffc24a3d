// When the recheck after a signature update runs (electron/recheck/recheck.ts), on stand-in jobs,
// power and protection state: only when the signatures change; after a full scan ends, never beside
// one (a full scan that starts pauses it, its end resumes it); paused on battery when scheduled scans
// skip it, resumed on mains; one at a time; a job the user paused is not resumed by these rules.
import { describe, expect, it, vi } from 'vitest';
import type { ProtectionView } from '../../../shared/engine/protection-view.ts';
import type { JobState } from '../../../shared/jobs/job.ts';
import type { RecheckStore } from '../../../electron/history/recheck-candidates.ts';
import type { JobEvent } from '../../../electron/jobs/jobs.ts';
import { createRecheck } from '../../../electron/recheck/recheck.ts';

const POWER_LOOK_MS = 60_000;

function viewWith(databases: string): ProtectionView {
  const engine = { name: 'clamav', version: '1.4.6', signatures: null, signatureBasis: 'databases', databases, source: 'own', where: 'unix:/x' };
  return { status: { state: 'outdated', engine } as unknown as ProtectionView['status'], remote: null, databaseDir: '/db', update: { phase: 'idle', last: null }, checkedAt: '' };
}

function job(id: number, kind: JobState['kind'], status: JobState['status'] = 'running'): JobState {
  return { id, kind, status, roots: [], excluded: [], origin: 'schedule', walkComplete: false, counts: { found: 0, bytes: 0, scanned: 0, threats: 0, couldNotScan: 0, skipped: 0 }, startedAt: '', finishedAt: null, activeMs: 0, currentFolder: null, runningSince: null };
}

function setup(selected = 5, fullFirst = false) {
  const jobs = new Map<number, JobState>();
  const ends = new Map<number, () => void>();
  const endings = new Map<number, Promise<JobState | null>>();
  const listeners = new Set<(event: JobEvent) => void>();
  const viewListeners = new Set<(view: ProtectionView) => void>();
  let current = viewWith('A');
  let nextId = 1;
  const power = { battery: false, onBattery: () => power.battery, onResume: () => () => {} };
  const tell = (state: JobState) => listeners.forEach((listener) => listener({ type: 'progress', progress: { job: state, filesPerSecond: 0, etaSeconds: null } }));
  const add = (state: JobState) => {
    jobs.set(state.id, state);
    endings.set(state.id, new Promise((resolve) => ends.set(state.id, () => resolve(jobs.get(state.id) ?? null))));
    tell(state);
    return state;
  };
  const fakeJobs = {
    start: vi.fn(async (request: { kind: JobState['kind'] }) => add(job(nextId++, request.kind))),
    finished: (id: number) => endings.get(id) ?? Promise.resolve(null),
    pause: vi.fn((id: number) => {
      const state = { ...jobs.get(id)!, status: 'paused' as const };
      jobs.set(id, state);
      return state;
    }),
    resume: vi.fn((id: number) => {
      const state = { ...jobs.get(id)!, status: 'running' as const };
      jobs.set(id, state);
      return state;
    }),
    get: (id: number) => jobs.get(id) ?? null,
    onEvent: (listener: (event: JobEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  if (fullFirst) add(job(100, 'full'));
  const store = { count: () => selected, linkOf: () => null, forgetFirstSeenBefore: () => {} } as unknown as RecheckStore;
  const recheck = createRecheck({
    store,
    jobs: fakeJobs as never,
    unfinished: () => [...jobs.values()].filter((state) => state.status !== 'completed' && state.status !== 'cancelled'),
    view: () => current,
    onViewChange: (listener) => {
      viewListeners.add(listener);
      return () => viewListeners.delete(listener);
    },
    settings: () => ({ recheckAfterUpdateDays: 14, scanSchedules: { skipOnBattery: true } }),
    power,
    now: Date.now,
    selected: new Map(),
    findings: new Set(),
    log: { info: () => {}, warn: () => {} },
    settleMs: 0,
    powerLookMs: POWER_LOOK_MS,
  });
  return {
    recheck,
    jobs,
    fakeJobs,
    power,
    add,
    change(databases: string) {
      current = viewWith(databases);
      viewListeners.forEach((listener) => listener(current));
    },
    end(id: number) {
      const state = { ...jobs.get(id)!, status: 'completed' as const };
      jobs.set(id, state);
      tell(state);
      ends.get(id)?.();
    },
    rechecks: () => [...jobs.values()].filter((state) => state.kind === 'recheck'),
  };
}

describe('when the recheck runs', () => {
  it('after each change of signatures, one at a time; not again for the same signatures', async () => {
    const t = setup();
    await vi.waitFor(() => expect(t.rechecks()).toHaveLength(1)); // at start: the signatures were not known before
    t.change('B'); // a change while one runs waits for it
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.rechecks()).toHaveLength(1);
    t.end(t.rechecks()[0]!.id);
    await vi.waitFor(() => expect(t.rechecks()).toHaveLength(2));
    t.end(t.rechecks()[1]!.id);
    t.change('B');
    await t.recheck.settled();
    expect(t.rechecks()).toHaveLength(2);
    t.recheck.close();
  });

  it('never beside a full scan: waits for one to end; one that starts pauses it, its end resumes it', async () => {
    const t = setup(5, true);
    await Promise.resolve();
    expect(t.rechecks()).toHaveLength(0);
    t.end(100);
    await vi.waitFor(() => expect(t.rechecks()).toHaveLength(1));
    const id = t.rechecks()[0]!.id;
    const full = t.add(job(101, 'full'));
    expect(t.fakeJobs.pause).toHaveBeenCalledWith(id);
    expect(t.jobs.get(id)?.status).toBe('paused');
    t.end(full.id);
    expect(t.fakeJobs.resume).toHaveBeenCalledWith(id);
    expect(t.jobs.get(id)?.status).toBe('running');
    t.recheck.close();
  });

  it('paused on battery when scheduled scans skip it, resumed on mains; a job the user paused stays paused', async () => {
    vi.useFakeTimers();
    try {
      const t = setup();
      await vi.waitFor(() => expect(t.rechecks()).toHaveLength(1));
      const id = t.rechecks()[0]!.id;
      t.power.battery = true;
      await vi.advanceTimersByTimeAsync(POWER_LOOK_MS);
      expect(t.jobs.get(id)?.status).toBe('paused');
      t.power.battery = false;
      await vi.advanceTimersByTimeAsync(POWER_LOOK_MS);
      expect(t.jobs.get(id)?.status).toBe('running');
      // The user pauses it: mains power does not resume it.
      t.jobs.set(id, { ...t.jobs.get(id)!, status: 'paused' });
      t.fakeJobs.resume.mockClear();
      await vi.advanceTimersByTimeAsync(POWER_LOOK_MS);
      expect(t.fakeJobs.resume).not.toHaveBeenCalled();
      t.recheck.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('nothing selected under the signatures in use: no job', async () => {
    const t = setup(0);
    await t.recheck.settled();
    expect(t.rechecks()).toHaveLength(0);
    t.recheck.close();
  });
});

// Scheduled scan jobs through the real core, the real built-in service, real files and
// the real history and schedule files, on a fake clock (no real timings): catch-up after
// a gap (once), a late timer and a wake-up, no double run beside a job started by hand,
// battery, and what a restart keeps.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../../electron/core/create-core.ts';
import { SCHEDULE_FILE_NAME } from '../../../../electron/jobs/schedule/schedule-records.ts';
import type { Schedule, ScanSchedules } from '../../../../shared/settings/schedules.ts';
import { useCoreFixture } from '../../core/core-fixture.ts';
import { FAST } from '../../scans/harness.ts';
import { writeTree } from '../job-kit.ts';
import { fakeClock, fakePower, type FakeClock, type FakePower } from './fake-clock.ts';

const { dir, open, dataDir } = useCoreFixture('verdict-schedules-');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Local wall time, away from any DST change. */
const local = (d: number, h: number, min = 0) => new Date(2026, 10, d, h, min).getTime();
const daily = (time: string): Schedule => ({ repeat: 'daily', time });
const quickDaily = (time: string, skipOnBattery = true): ScanSchedules => ({ quick: daily(time), full: { repeat: 'off' }, skipOnBattery });

async function openAt(clock: FakeClock, power: FakePower = fakePower()): Promise<CoreInternals> {
  const home = join(dir.path, 'home');
  await writeTree(join(home, 'Downloads'), 3);
  return open({ ...FAST, jobPlaces: { platform: 'linux', home, env: { TMPDIR: join(home, 'no-tmp') } }, scheduleClock: clock }, { power });
}

/** As if an earlier run of Verdict had left these settings and this schedule state. */
async function leftBefore(schedules: ScanSchedules, servedUntil: number): Promise<void> {
  await mkdir(dataDir(), { recursive: true });
  await writeFile(join(dataDir(), 'settings.json'), JSON.stringify({ version: 1, scanSchedules: schedules }));
  const record = { schedule: schedules.quick, servedUntil: new Date(servedUntil).toISOString(), lastRunAt: new Date(servedUntil).toISOString(), lastJobId: null, lastOutcome: 'ran' };
  await writeFile(join(dataDir(), SCHEDULE_FILE_NAME), JSON.stringify({ version: 1, kinds: { quick: record } }));
}

const scheduledJobs = (core: CoreInternals) => core.jobs.list().filter((job) => job.origin === 'schedule');
const quickView = (core: CoreInternals) => core.schedules.view().kinds.find((kind) => kind.kind === 'quick')!;
const servedUntil = async () => (JSON.parse(await readFile(join(dataDir(), SCHEDULE_FILE_NAME), 'utf8')) as { kinds: { quick: { servedUntil: string } } }).kinds.quick.servedUntil;

describe('scheduled scans in the core', () => {
  it('catches up once at start after three days off, then runs at its next time', async () => {
    await leftBefore(quickDaily('09:00'), local(22, 9, 30));
    const clock = fakeClock(local(25, 12));

    const core = await openAt(clock);
    await core.schedules.settled();

    // Three due times were missed (23rd, 24th, 25th at 09:00): one run for them all.
    expect(scheduledJobs(core)).toHaveLength(1);
    expect(scheduledJobs(core)[0]).toMatchObject({ kind: 'quick', status: 'completed', counts: { scanned: 3 } });
    expect(quickView(core)).toMatchObject({ lastOutcome: 'ran', activity: 'idle', nextDue: new Date(local(26, 9)).toISOString() });
    expect(await servedUntil()).toBe(new Date(local(25, 9)).toISOString());

    clock.advance(21 * HOUR - 1);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
    clock.advance(1);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(2);
    expect(core.schedules.view().next).toEqual({ kind: 'quick', at: new Date(local(27, 9)).toISOString() });
  });

  it('a new schedule never runs for a time already past today; a served due time stays served after a restart', async () => {
    const clock = fakeClock(local(25, 12));
    const first = await openAt(clock);
    expect((await first.settings.update({ scanSchedules: quickDaily('09:00') })).ok).toBe(true);
    await first.schedules.settled();
    expect(scheduledJobs(first)).toHaveLength(0);
    clock.advance(21 * HOUR);
    await first.schedules.settled();
    expect(scheduledJobs(first)).toHaveLength(1);
    await first.close();

    // Started again later the same day: nothing is due.
    const second = await openAt(fakeClock(local(26, 18)));
    await second.schedules.settled();
    expect(scheduledJobs(second)).toHaveLength(1);
    expect(quickView(second)).toMatchObject({ lastOutcome: 'ran', nextDue: new Date(local(27, 9)).toISOString() });
  });

  it('a damaged schedule file starts the schedules afresh: no burst of catch-up runs', async () => {
    await leftBefore(quickDaily('09:00'), local(22, 9, 30));
    await writeFile(join(dataDir(), SCHEDULE_FILE_NAME), '{"version":1,"kinds":{"quick":{"servedUntil":"not a date"}}}');
    const clock = fakeClock(local(25, 12));
    const core = await openAt(clock);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(0);
    expect(await servedUntil()).toBe(new Date(local(25, 12)).toISOString());
    clock.advance(21 * HOUR);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
  });

  it('a timer that fires late, after the computer slept through two due times, runs the job once', async () => {
    const clock = fakeClock(local(25, 8));
    const core = await openAt(clock);
    await core.settings.update({ scanSchedules: quickDaily('09:00') });
    clock.sleep(2 * DAY);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(0);

    clock.fireLate();
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
    clock.fireLate();
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
  });

  it('waking from sleep looks again at once', async () => {
    const clock = fakeClock(local(25, 8));
    const power = fakePower();
    const core = await openAt(clock, power);
    await core.settings.update({ scanSchedules: quickDaily('09:00') });
    clock.sleep(3 * HOUR);
    power.resume();
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
  });

  it('skips a due time on battery power when set, and runs the next one on mains power', async () => {
    const clock = fakeClock(local(25, 8));
    const power = fakePower();
    power.battery = true;
    const core = await openAt(clock, power);
    await core.settings.update({ scanSchedules: quickDaily('09:00') });
    clock.advance(1 * HOUR);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(0);
    expect(quickView(core).lastOutcome).toBe('skipped_battery');

    power.battery = false;
    clock.advance(DAY);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
    expect(quickView(core).lastOutcome).toBe('ran');
  });

  it('runs on battery power when the option is off', async () => {
    const clock = fakeClock(local(25, 8));
    const power = fakePower();
    power.battery = true;
    const core = await openAt(clock, power);
    await core.settings.update({ scanSchedules: quickDaily('09:00', false) });
    clock.advance(1 * HOUR);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
  });
});

describe('no double run', () => {
  it('waits for a quick scan started by hand; when it completes, it served the due time', async () => {
    const clock = fakeClock(local(25, 8));
    const core = await openAt(clock);
    await core.settings.update({ scanSchedules: quickDaily('09:00') });
    const manual = await core.jobs.start({ kind: 'quick' });
    core.jobs.pause(manual.id);

    clock.advance(1 * HOUR);
    expect(quickView(core).activity).toBe('waiting');
    expect(core.jobs.list()).toHaveLength(1);

    core.jobs.resume(manual.id);
    await core.schedules.settled();
    expect(core.jobs.list()).toHaveLength(1);
    expect(core.jobs.get(manual.id)).toMatchObject({ status: 'completed' });
    expect(quickView(core)).toMatchObject({ activity: 'idle', lastOutcome: 'covered' });
  });

  it('when the scan started by hand is cancelled, runs once for every due time that passed while it waited', async () => {
    const clock = fakeClock(local(25, 8));
    const core = await openAt(clock);
    await core.settings.update({ scanSchedules: quickDaily('09:00') });
    const manual = await core.jobs.start({ kind: 'quick' });
    core.jobs.pause(manual.id);

    clock.advance(2 * DAY + 1 * HOUR);
    expect(quickView(core).activity).toBe('waiting');
    core.jobs.cancel(manual.id);
    await core.schedules.settled();

    expect(core.jobs.get(manual.id)).toMatchObject({ status: 'cancelled' });
    expect(scheduledJobs(core)).toHaveLength(1);
    expect(await servedUntil()).toBe(new Date(local(27, 9)).toISOString());
  });

  it('a scheduled job still running at its next due time serves that one too: one job, not a queue', async () => {
    const clock = fakeClock(local(25, 8));
    const core = await openAt(clock);
    await core.settings.update({ scanSchedules: quickDaily('09:00') });
    let scheduledId: number | null = null;
    core.jobs.onEvent((event) => {
      if (event.type === 'progress' && event.progress.job.origin === 'schedule' && scheduledId === null) {
        scheduledId = event.progress.job.id;
        core.jobs.pause(scheduledId);
      }
    });
    clock.advance(1 * HOUR);
    await expect.poll(() => scheduledId).not.toBeNull();
    expect(quickView(core).activity).toBe('running');
    clock.advance(2 * DAY);
    expect(scheduledJobs(core)).toHaveLength(1);

    core.jobs.resume(scheduledId!);
    await core.schedules.settled();
    expect(scheduledJobs(core)).toHaveLength(1);
    expect(await servedUntil()).toBe(new Date(local(27, 9)).toISOString());
    expect(quickView(core)).toMatchObject({ activity: 'idle', nextDue: new Date(local(28, 9)).toISOString() });
  });

  it('quick and full due at the same time run side by side, each once', async () => {
    const clock = fakeClock(local(25, 8));
    const core = await openAt(clock);
    await core.settings.update({ scanSchedules: { quick: daily('09:00'), full: { repeat: 'weekly', weekday: 3, time: '09:00' }, skipOnBattery: true } });
    clock.advance(1 * HOUR);
    await core.schedules.settled();
    expect(scheduledJobs(core).map((job) => job.kind).sort()).toEqual(['full', 'quick']);
    expect(core.schedules.view().next).toEqual({ kind: 'quick', at: new Date(local(26, 9)).toISOString() });
  });

  it('a scheduled job interrupted by a restart resumes, and is not started a second time', async () => {
    const clock = fakeClock(local(25, 8));
    const first = await openAt(clock);
    await first.settings.update({ scanSchedules: quickDaily('09:00') });
    let scheduledId: number | null = null;
    first.jobs.onEvent((event) => {
      // Paused as soon as it shows: it cannot end before the restart.
      if (event.type === 'progress' && event.progress.job.origin === 'schedule' && scheduledId === null) {
        scheduledId = event.progress.job.id;
        first.jobs.pause(scheduledId);
      }
    });
    clock.advance(1 * HOUR);
    await expect.poll(() => scheduledId).not.toBeNull();
    await first.close();

    // The due time was saved as served when the job started: nothing starts again.
    const later = fakeClock(local(25, 10));
    const second = await openAt(later);
    await second.schedules.settled();
    expect(scheduledJobs(second)).toHaveLength(1);
    expect(second.jobs.get(scheduledId!)).toMatchObject({ status: 'paused' });
    // Still paused at the next due time: that one waits for it, and it serves it.
    later.advance(23 * HOUR);
    expect(quickView(second).activity).toBe('waiting');
    second.jobs.resume(scheduledId!);
    await second.schedules.settled();
    expect(scheduledJobs(second)).toHaveLength(1);
    expect(second.jobs.get(scheduledId!)).toMatchObject({ status: 'completed' });
    expect(quickView(second).lastOutcome).toBe('covered');
  });
});

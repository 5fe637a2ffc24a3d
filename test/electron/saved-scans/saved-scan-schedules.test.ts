// Saved scans on a schedule through the real core, on a fake clock (no real timings): the
// scheduler's rules hold for them too. A saved scan runs at its time as a custom job with
// its folders and exclusions; a time missed while Verdict was closed is caught up once at the
// next start; a due time while its job (started by hand) is still unfinished starts no second
// one; removing the scan or turning its schedule off stops it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { fakeClock, fakePower, type FakeClock } from '../jobs/schedule/fake-clock.ts';
import { FAST, writeEicar } from '../scans/harness.ts';

const { dir, open } = useCoreFixture('verdict-saved-schedules-');

const HOUR = 3_600_000;
const local = (d: number, h: number, min = 0) => new Date(2026, 10, d, h, min).getTime();

async function workTree(): Promise<string> {
  const root = join(dir.path, 'work');
  await mkdir(join(root, 'cache'), { recursive: true });
  await writeFile(join(root, 'a.txt'), 'a\n');
  await writeEicar(join(root, 'eicar.com'));
  await writeFile(join(root, 'cache', 'c.txt'), 'c\n');
  return root;
}

const openAt = (clock: FakeClock, power = fakePower()) => open({ ...FAST, scheduleClock: clock }, { power });
const scheduled = (core: CoreInternals) => core.jobs.list().filter((job) => job.origin === 'schedule');
const settled = async (core: CoreInternals) => {
  await core.savedScanSchedules?.settled();
};

describe('saved scans on a schedule', () => {
  it('runs at its time, catches a missed time up once at the next start, and stops when its schedule is off', async () => {
    const root = await workTree();
    const clock = fakeClock(local(25, 12));
    const first = await openAt(clock);
    expect((await first.savedScans.save({ name: 'Work', folders: [root], excluded: [join(root, 'cache')], schedule: { repeat: 'daily', time: '09:00' } })).ok).toBe(true);
    await settled(first);
    // A new schedule never runs for a time already past today.
    expect(scheduled(first)).toHaveLength(0);
    clock.advance(21 * HOUR - 1);
    await settled(first);
    expect(scheduled(first)).toHaveLength(0);
    clock.advance(1);
    await settled(first);
    expect(scheduled(first)).toHaveLength(1);
    const job = await first.jobs.finished(scheduled(first)[0]!.id);
    expect(job).toMatchObject({ kind: 'custom', roots: [root], status: 'completed', counts: { threats: 1, skipped: 1 } });
    await first.close();

    // Closed for three days: the three missed times make one run at the next start.
    const later = fakeClock(local(29, 12));
    const second = await openAt(later);
    await settled(second);
    expect(scheduled(second)).toHaveLength(2);
    await second.jobs.finished(scheduled(second)[1]!.id);

    // Off: its time passes with no run.
    expect((await second.savedScans.save({ name: 'work', folders: [root], schedule: { repeat: 'off' } })).ok).toBe(true);
    later.advance(24 * HOUR);
    await settled(second);
    expect(scheduled(second)).toHaveLength(2);
  });

  it('never a second run while its job is unfinished; the due time is served by it', async () => {
    const root = await workTree();
    const clock = fakeClock(local(25, 8, 59));
    const core = await openAt(clock);
    await core.savedScans.save({ name: 'Work', folders: [root], schedule: { repeat: 'daily', time: '09:00' } });
    await settled(core);
    // Started by hand and paused: still unfinished at 09:00.
    const byHand = await core.savedScans.run('Work');
    if (!byHand.ok) throw new Error(byHand.error.message);
    core.jobs.pause(byHand.value.job.id);
    clock.advance(60_000);
    expect(scheduled(core)).toHaveLength(0);
    core.jobs.resume(byHand.value.job.id);
    await core.jobs.finished(byHand.value.job.id);
    await settled(core);
    expect(scheduled(core)).toHaveLength(0);
    expect(core.jobs.list().filter((job) => job.kind === 'custom')).toHaveLength(1);
  });

  it('tells the soonest saved scan\'s next run, and follows "skip on battery" without an edit or a restart', async () => {
    const root = await workTree();
    const clock = fakeClock(local(25, 8, 0));
    const power = fakePower();
    power.battery = true;
    const core = await openAt(clock, power);
    const heard: unknown[] = [];
    core.savedScanNext?.onNext((next) => heard.push(next));
    expect(core.savedScanNext?.next()).toBeNull();
    await core.savedScans.save({ name: 'Evening', folders: [root], schedule: { repeat: 'daily', time: '18:00' } });
    await core.savedScans.save({ name: 'Work', folders: [root], schedule: { repeat: 'daily', time: '09:00' } });
    await settled(core);
    const nine = { name: 'Work', at: new Date(local(25, 9)).toISOString() };
    expect(core.savedScanNext?.next()).toEqual(nine);
    expect(heard.at(-1)).toEqual(nine);

    // On battery, with the default "skip on battery": 09:00 passes with no run.
    clock.advance(HOUR);
    await settled(core);
    expect(scheduled(core)).toHaveLength(0);
    expect(core.savedScanNext?.next()).toEqual({ name: 'Evening', at: new Date(local(25, 18)).toISOString() });

    // Turned off in the settings: the saved scan's scheduler follows at once, and 18:00 runs on battery.
    const settings = await core.settings.get();
    expect(settings.ok).toBe(true);
    if (!settings.ok) return;
    expect((await core.settings.update({ scanSchedules: { ...settings.value.scanSchedules, skipOnBattery: false } })).ok).toBe(true);
    clock.advance(9 * HOUR);
    await settled(core);
    expect(scheduled(core)).toHaveLength(1);
    await core.jobs.finished(scheduled(core)[0]!.id);
  });
});

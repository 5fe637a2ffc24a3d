// The automatic update schedule, on vitest's fake clock: at start, every 12 hours,
// never inside freshclam's cool-down, one run at a time.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { UpdateSignaturesResult } from '../../../../electron/engine/freshclam/run-freshclam.ts';
import { scheduleSignatureUpdates, UPDATE_INTERVAL_MS } from '../../../../electron/engine/freshclam/update-schedule.ts';

const CURRENT: UpdateSignaturesResult = { ok: true, outcome: { kind: 'current', version: 27467 }, reloaded: false };
const START = new Date(2026, 10, 25, 12, 0, 0).getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

test('one update at start, then one every 12 hours', async () => {
  const update = vi.fn(async () => CURRENT);
  const schedule = scheduleSignatureUpdates({ update });
  await vi.advanceTimersByTimeAsync(0);
  expect(update).toHaveBeenCalledTimes(1);
  expect(schedule.nextRunAt).toBe(START + UPDATE_INTERVAL_MS);
  await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS - 1);
  expect(update).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(update).toHaveBeenCalledTimes(2);
  schedule.stop();
  await vi.advanceTimersByTimeAsync(2 * UPDATE_INTERVAL_MS);
  expect(update).toHaveBeenCalledTimes(2);
  expect(schedule.nextRunAt).toBeNull();
});

test('a cool-down longer than the interval moves the next run past its end', async () => {
  const coolDown: UpdateSignaturesResult = { ok: true, outcome: { kind: 'mirror_refused', until: '2026-11-26 06:30:00' }, reloaded: false };
  const update = vi.fn(async () => coolDown);
  const schedule = scheduleSignatureUpdates({ update });
  await vi.advanceTimersByTimeAsync(0);
  expect(schedule.nextRunAt).toBe(new Date(2026, 10, 26, 6, 30, 0).getTime());
  schedule.stop();
});

test('"Update now" during a run joins it; a failing update still plans the next', async () => {
  let finish: (result: UpdateSignaturesResult) => void = () => undefined;
  const update = vi.fn(() => new Promise<UpdateSignaturesResult>((resolve) => (finish = resolve)));
  const results: UpdateSignaturesResult[] = [];
  const schedule = scheduleSignatureUpdates({ update, onResult: (result) => results.push(result) });
  await vi.advanceTimersByTimeAsync(0);
  const joined = schedule.runNow();
  expect(update).toHaveBeenCalledTimes(1);
  finish(CURRENT);
  expect(await joined).toBe(CURRENT);
  expect(results).toEqual([CURRENT]);

  update.mockImplementationOnce(async () => {
    throw new Error('spawn exploded');
  });
  await expect(schedule.runNow()).rejects.toThrow('spawn exploded');
  expect(schedule.nextRunAt).toBe(START + UPDATE_INTERVAL_MS);
  schedule.stop();
});

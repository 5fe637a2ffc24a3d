// Async scans at the embedded service: the pipeline learns each verdict when the
// service says the scan finished (its doorbell, across the service thread), not
// at its next poll. With polling slowed to ten minutes, the files still reach
// their verdicts within seconds: the real core, the embedded service in its
// worker thread, the built-in engine.
import { describe, expect, test } from 'vitest';
import { FAST, until, writeFiles } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const fixture = useCoreFixture('verdict-core-doorbell-');
const SLOW_POLL = { ...FAST, poll: { initialDelayMs: 600_000, maxDelayMs: 600_000 } };

describe('async scans at the embedded service', () => {
  test('reach their verdicts when the service rings, without waiting for a poll', async () => {
    const core = await fixture.open(SLOW_POLL);
    const files = await writeFiles(fixture.dir.path, 5);
    const submitted = await core.submit(files, { origin: 'cli', mode: 'async' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    const ids = submitted.value.ids;
    expect(ids).toHaveLength(5);
    await until(async () => {
      const records = await Promise.all(ids.map((id) => core.scans.get(id)));
      return records.every((got) => got.ok && got.value?.status === 'completed');
    }, 'every async scan to complete', 15_000);
    for (const id of ids) {
      const got = await core.scans.get(id);
      expect(got.ok && got.value).toMatchObject({ mode: 'async', status: 'completed', safe: true });
    }
  });
});

// The CLI's history checkpoints its WAL every walAutocheckpointPages pages instead of SQLite's 1,000
// (electron/cli/memory-flags.ts: each checkpoint copies the pages and fsyncs, and a scan made hundreds).
// The same writes leave a WAL of about 1,000 pages by default, and grow it past that with the setting;
// the history reads back whole either way, and its close leaves no WAL behind.
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HISTORY_FILE_NAME, openHistory } from '../../../electron/history/history.ts';
import { makeRecord } from './fixtures/records.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'verdict-wal-autocheckpoint-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const PAGE = 4096;

/** Writes batches of records, each its own commit; returns the WAL's size in pages before close. */
function writeBatches(dir: string, walAutocheckpointPages?: number): { walPages: number; rows: number } {
  const history = openHistory(dir, { synchronous: 'NORMAL', ...(walAutocheckpointPages === undefined ? {} : { walAutocheckpointPages }) });
  try {
    for (let batch = 0; batch < 30; batch++) history.insertMany(Array.from({ length: 100 }, () => makeRecord({ path: `/home/user/${'long folder name/'.repeat(8)}${batch}` })));
    const walPages = statSync(join(dir, `${HISTORY_FILE_NAME}-wal`)).size / PAGE;
    return { walPages, rows: history.query({ limit: 1 }).total };
  } finally {
    history.close();
  }
}

it('grows the WAL to the set number of pages before a commit checkpoints it, where SQLite stops at about 1,000', async () => {
  const byDefault = writeBatches(join(folder, 'default'));
  const set = writeBatches(join(folder, 'set'), 10_000);
  expect(byDefault.rows).toBe(3000);
  expect(set.rows).toBe(3000);
  // The default's WAL went back to its start after ~1,000 pages; with the setting every commit's pages are still there.
  expect(byDefault.walPages).toBeLessThan(1_300);
  expect(set.walPages).toBeGreaterThan(2 * byDefault.walPages);
  expect(set.walPages).toBeLessThan(10_000);
  expect(existsSync(join(folder, 'set', `${HISTORY_FILE_NAME}-wal`))).toBe(false);
});

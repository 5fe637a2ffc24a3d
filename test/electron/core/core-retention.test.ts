// History retention through the real core: keep N days / N scans at start, on
// a settings change and periodically; "clear history"; never a pending record,
// never the record of a file in quarantine (nor the quarantine entry); the UI
// learns what went through a `removed` event.
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ScanEvent, ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { makeRecord } from '../history/fixtures/records.ts';
import { FAST, until, writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, dataDir, open } = useCoreFixture('verdict-core-retention-');

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** Finished records of various ages (written straight into the history, as earlier runs would have). */
function seed(records: ScanRecord[]): void {
  const history = openHistory(dataDir());
  history.insertMany(records);
  history.close();
}

const finished = (days: number, extra: Partial<ScanRecord> = {}) =>
  makeRecord({ status: 'completed', safe: true, queuedAt: daysAgo(days), completedAt: daysAgo(days), ...extra });

async function ids(core: CoreInternals): Promise<string[]> {
  const page = await core.scans.list({ limit: 1000, order: 'oldest' });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.items.map((record) => record.id);
}

describe('history retention', () => {
  it('keeps N days at start: older finished scans go, pending and quarantined ones stay', async () => {
    const old = finished(40);
    const oldFailed = makeRecord({ status: 'failed', queuedAt: daysAgo(35), error: { code: 'not_found', message: 'gone' } });
    const oldInQuarantine = finished(50, { safe: false, disposition: 'quarantined', quarantineId: 'q-1' });
    const oldPending = makeRecord({ status: 'queued', queuedAt: daysAgo(45), path: join(dir.path, 'missing.txt') });
    const recent = finished(2);
    // The settings file of an earlier run says: keep 30 days.
    const first = await open();
    expect((await first.settings.update({ historyRetention: { keepDays: 30 } })).ok).toBe(true);
    await first.close();
    seed([old, oldFailed, oldInQuarantine, oldPending, recent, finished(31)]);

    const core = await open();
    const left = await ids(core);
    expect(left).toContain(oldInQuarantine.id);
    expect(left).toContain(oldPending.id);
    expect(left).toContain(recent.id);
    expect(left).not.toContain(old.id);
    expect(left).not.toContain(oldFailed.id);
    expect(left).toHaveLength(3);
  });

  it('keeps the last N scans when the setting changes, telling subscribers what was removed', async () => {
    const records = Array.from({ length: 6 }, (_, i) => finished(10 - i));
    seed(records);
    const core = await open();
    const events: ScanEvent[] = [];
    core.onEvent((event) => events.push(event));
    expect((await core.settings.update({ historyRetention: { keepScans: 4 } })).ok).toBe(true);
    expect(await ids(core)).toEqual(records.slice(2).map((r) => r.id));
    expect(events.filter((event) => event.type === 'removed')).toEqual([{ type: 'removed', ids: expect.arrayContaining([records[0]!.id, records[1]!.id]) }]);
    // Both limits: the stricter wins for each record.
    expect((await core.settings.update({ historyRetention: { keepScans: 3, keepDays: 6 } })).ok).toBe(true);
    expect(await ids(core)).toEqual(records.slice(5).map((r) => r.id));
    // No limits: nothing more goes.
    expect((await core.settings.update({ historyRetention: {} })).ok).toBe(true);
    expect(await ids(core)).toHaveLength(1);
  });

  it('applies retention periodically while running', async () => {
    const core = await open({ ...FAST, retentionIntervalMs: 50 });
    expect((await core.settings.update({ historyRetention: { keepDays: 7 } })).ok).toBe(true);
    const removed: string[] = [];
    core.onEvent((event) => {
      if (event.type === 'removed') removed.push(...event.ids);
    });
    // Written by another connection while the core runs (e.g. records that aged past the limit).
    const stale = finished(8);
    seed([stale, finished(1)]);
    await until(() => removed.includes(stale.id), 'the periodic retention run');
    expect(await ids(core)).toHaveLength(1);
  });

  it('"clear history" removes every finished scan but never touches a file in quarantine or its record', async () => {
    const core = await open();
    expect((await core.settings.update({ threatAction: 'quarantine' })).ok).toBe(true);
    const eicar = await writeEicar(join(dir.path, 'eicar.com'));
    const submitted = await core.submit([eicar], { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    await core.threatsSettled();
    const [threatId] = submitted.value.ids;
    seed([finished(3), finished(2), makeRecord({ status: 'queued', path: join(dir.path, 'later.txt') })]);

    const events: ScanEvent[] = [];
    core.onEvent((event) => events.push(event));
    expect(await core.history.clear()).toEqual({ ok: true, value: { removed: 2 } });
    expect(events.filter((event) => event.type === 'removed').flatMap((event) => (event.type === 'removed' ? event.ids : []))).toHaveLength(2);
    const left = await ids(core);
    expect(left).toContain(threatId);
    const entries = await core.quarantine.list();
    expect(entries.ok && entries.value).toHaveLength(1);
    expect(existsSync(join(dataDir(), 'quarantine', 'files', entries.ok ? entries.value[0]!.id : ''))).toBe(true);

    // Once the file is restored its record is ordinary history: the next clear removes it; the entry stays listed.
    if (!entries.ok) throw new Error('no entries');
    expect((await core.quarantine.restore(entries.value[0]!.id)).ok).toBe(true);
    expect(await core.history.clear()).toEqual({ ok: true, value: { removed: 1 } });
    expect(await ids(core)).not.toContain(threatId);
    const all = await core.quarantine.list({ include: 'all' });
    expect(all.ok && all.value.map((entry) => entry.state)).toEqual(['restored']);
  });
});

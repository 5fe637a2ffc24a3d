// Ticking scans for bulk actions (toggle, Shift ranges, cleared by a filter
// change or when a scan leaves the history), which ticked scans each bulk
// action applies to, the list filter for "allowed", and the dialog slot.
import { describe, expect, it } from 'vitest';
import { queuedRecord, type ScanRecord } from '../../shared/scans/record.ts';
import { bulkGroups } from '../../renderer/scans/bulk-groups.ts';
import { matchesFilters, NO_FILTERS, pageQuery } from '../../renderer/scans/filters.ts';
import { createVerdictStore } from '../../renderer/store/store.ts';

let serial = 0;
function record(overrides: Partial<ScanRecord> = {}): ScanRecord {
  serial++;
  return {
    ...queuedRecord({ id: `id-${serial}`, path: `/files/file-${serial}.exe`, fileName: `file-${serial}.exe`, origin: 'dialog', backend: 'local', externalReferenceId: `ref-${serial}`, queuedAt: new Date(Date.UTC(2025, 0, 1) + serial * 1000).toISOString() }),
    size: 68,
    sha256: 'ab'.repeat(32),
    mode: 'sync',
    status: 'completed',
    safe: false,
    detailed: 'Eicar',
    ...overrides,
  };
}

function loaded(records: ScanRecord[]) {
  const store = createVerdictStore();
  const generation = store.getState().resetList();
  store.getState().receivePage(generation, 0, 0, { items: records, total: records.length });
  return store;
}

describe('ticking scans', () => {
  it('toggles one, ticks a Shift range from the last one ticked, and clears', () => {
    const records = Array.from({ length: 6 }, () => record());
    const store = loaded(records);
    store.getState().toggleChecked(records[1]!.id, 1);
    expect([...store.getState().checked]).toEqual([records[1]!.id]);
    store.getState().checkRange(4);
    expect(new Set(store.getState().checked)).toEqual(new Set(records.slice(1, 5).map((r) => r.id)));
    store.getState().toggleChecked(records[2]!.id, 2);
    expect(store.getState().checked.has(records[2]!.id)).toBe(false);
    store.getState().clearChecked();
    expect(store.getState().checked.size).toBe(0);
    // A range without an anchor is just that row.
    store.getState().checkRange(3);
    expect([...store.getState().checked]).toEqual([records[3]!.id]);
  });

  it('forgets ticks when the filters change and when a scan leaves the history', () => {
    const records = Array.from({ length: 3 }, () => record());
    const store = loaded(records);
    store.getState().setChecked(records.map((r) => r.id));
    store.getState().applyEvents([{ type: 'removed', ids: [records[0]!.id] }]);
    expect(new Set(store.getState().checked)).toEqual(new Set([records[1]!.id, records[2]!.id]));
    store.getState().setFilters({ verdict: 'unsafe' });
    expect(store.getState().checked.size).toBe(0);
  });

  it('holds one dialog; a new one cancels the old', () => {
    const store = createVerdictStore();
    const answers: unknown[] = [];
    store.getState().openDialog({ kind: 'confirm', title: 'history.clearTitle', body: 'history.clearBody', confirm: 'history.clearConfirm', resolve: (a) => answers.push(a) });
    store.getState().openDialog({ kind: 'upload', host: 'scan.example.com', count: 1, name: 'a.pdf', resolve: (a) => answers.push(a) });
    expect(answers).toEqual([null]);
    expect(store.getState().dialog?.kind).toBe('upload');
  });
});

describe('bulkGroups', () => {
  it('sorts the ticked scans by what can be done with them', () => {
    const notified = record();
    const failedMove = record({ disposition: 'quarantine_failed' });
    const restored = record({ disposition: 'restored', quarantineId: 'q0' });
    const inQuarantine = record({ disposition: 'quarantined', quarantineId: 'q1' });
    const moving = record({ disposition: 'quarantine_pending' });
    const allowed = record({ disposition: 'allowed' });
    const clean = record({ safe: true });
    const noHash = record({ sha256: null });
    const waiting = record({ status: 'queued', safe: null, pendingReason: 'awaiting_upload_consent' });
    const groups = bulkGroups([notified, failedMove, restored, inQuarantine, moving, allowed, clean, noHash, waiting]);
    expect(groups.quarantinable.map((r) => r.id)).toEqual([notified.id, failedMove.id, restored.id]);
    expect(groups.inQuarantine.map((r) => r.quarantineId)).toEqual(['q1']);
    expect(groups.waiting.map((r) => r.id)).toEqual([waiting.id]);
  });
});

describe('the "allowed" verdict filter', () => {
  it('asks the core for allowed scans and matches live records the same way; never as threats or clean', () => {
    const allowed = record({ disposition: 'allowed' });
    const threat = record();
    expect(pageQuery({ ...NO_FILTERS, verdict: 'allowed' }, 0, 50)).toMatchObject({ verdicts: ['allowed'] });
    expect(matchesFilters(allowed, { ...NO_FILTERS, verdict: 'allowed' })).toBe(true);
    expect(matchesFilters(allowed, { ...NO_FILTERS, verdict: 'unsafe' })).toBe(false);
    expect(matchesFilters(allowed, { ...NO_FILTERS, verdict: 'safe' })).toBe(false);
    expect(matchesFilters(threat, { ...NO_FILTERS, verdict: 'allowed' })).toBe(false);
  });
});

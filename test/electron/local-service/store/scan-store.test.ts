// The scans table on a real SQLite file: an outcome recorded with the scan the
// caller already holds (no row read back) must be exactly the scan a GET reads
// later, also when the engine's identity does not pass the read-side check.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/local-service/store/database.ts';
import { createScanStore, FORGET_RECORDED_SQL, processingScan, type NewScan, type ScanStore } from '../../../../electron/local-service/store/scan-store.ts';
import { newScan } from './new-scan.ts';

let dir: string;
let db: DatabaseSync;
let store: ScanStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-scan-store-'));
  db = openDatabase(join(dir, 'service.db'));
  store = createScanStore(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function inserted(overrides: Partial<NewScan> = {}) {
  const scan = newScan(overrides);
  expect(store.insert(scan)).toBe('inserted');
  return processingScan(scan);
}

const clamav = { name: 'clamav' as const, version: '1.4.6', signatures: { version: 27467, date: 'Mon Nov 24 09:00:00 2025' } };
const outcome = (engine: unknown) => ({
  result: { safe: false, detailed: 'infected', findings: [{ name: 'Eicar-Signature', engine: 'clamd' }] },
  engine: engine as typeof clamav,
  completedAt: '2026-11-26T00:00:01.000Z',
  scanDurationMs: 7,
});

describe('recording an outcome with the scan in hand', () => {
  it('complete: the returned scan equals the row read back, with or without the caller’s scan', () => {
    const known = inserted();
    const returned = store.complete(known.id, outcome(clamav), known);
    expect(returned).toEqual(store.get(known.id));
    expect(returned).toMatchObject({ status: 'completed', engine: clamav, result: { safe: false, findings: [{ name: 'Eicar-Signature' }] } });

    const unknown = inserted();
    expect(store.complete(unknown.id, outcome(clamav))).toEqual(store.get(unknown.id));
  });

  it('complete: an engine identity the read side refuses is null both ways', () => {
    const known = inserted();
    const tooLong = { ...clamav, version: 'x'.repeat(100) };
    const returned = store.complete(known.id, outcome(tooLong), known);
    expect(returned?.engine).toBeNull();
    expect(returned).toEqual(store.get(known.id));
  });

  it('fail: the returned scan equals the row read back', () => {
    const known = inserted({ executionMode: 'async', externalReferenceId: null });
    const returned = store.fail(known.id, { error: { code: 'engine_timeout', detail: 'no answer' }, completedAt: '2026-11-26T00:00:02.000Z', scanDurationMs: 9 }, known);
    expect(returned).toEqual(store.get(known.id));
    expect(returned).toMatchObject({ status: 'failed', error: { code: 'engine_timeout', detail: 'no answer' } });
  });

  it('a scan already terminal (or gone) is not changed: the stored row comes back, or null', () => {
    const known = inserted();
    const first = store.complete(known.id, outcome(clamav), known);
    const second = store.fail(known.id, { error: { code: 'engine_error', detail: null }, completedAt: '2026-11-26T00:00:09.000Z', scanDurationMs: 1 }, known);
    expect(second).toEqual(first);
    const forgotten = inserted();
    expect(store.forget(forgotten.id)).toBe(true);
    expect(store.complete(forgotten.id, outcome(clamav), forgotten)).toBeNull();
  });
});

describe('forgetRecorded', () => {
  it('deletes the listed terminal scans of that integration only, looking each up by its id', () => {
    const done = inserted();
    store.complete(done.id, outcome(clamav), done);
    const processing = inserted();
    const otherIntegration = inserted({ integrationId: 'other' });
    store.complete(otherIntegration.id, outcome(clamav), otherIntegration);
    expect(store.forgetRecorded('integration', [done.id, processing.id, otherIntegration.id, 'no-such-scan'])).toBe(1);
    expect(store.get(done.id)).toBeNull();
    expect(store.get(processing.id)?.status).toBe('processing');
    expect(store.get(otherIntegration.id)?.status).toBe('completed');

    // By key, not by reading every scan of the integration (the table holds all scans not yet forgotten).
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${FORGET_RECORDED_SQL}`).all('integration', '[]') as Array<{ detail: string }>;
    expect(plan[0]?.detail).toMatch(/^SEARCH scans USING INDEX sqlite_autoindex_scans_1 \(id=\?\)/);
  });
});

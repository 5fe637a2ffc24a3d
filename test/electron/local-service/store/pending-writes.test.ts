// Pending inserts on a real SQLite file, watched from a second connection (as
// another process, or the same file after a crash, would see it): a pending
// insert is not durable until a commit, which any durable write or a read that
// answers a client makes, and together with that write.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/local-service/store/database.ts';
import { createScanStore, processingScan, type ScanStore } from '../../../../electron/local-service/store/scan-store.ts';
import { newScan } from './new-scan.ts';

let dir: string;
let file: string;
let db: DatabaseSync;
let store: ScanStore;
let observer: DatabaseSync;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-pending-writes-'));
  file = join(dir, 'service.db');
  db = openDatabase(file);
  store = createScanStore(db);
  observer = new DatabaseSync(file, { readOnly: true });
});
afterEach(async () => {
  observer.close();
  if (db.isOpen) db.close();
  await rm(dir, { recursive: true, force: true });
});

const seen = (id: string) => (observer.prepare('SELECT status FROM scans WHERE id = ?').get(id) as { status: string } | undefined)?.status ?? null;
const verdict = { result: { safe: true, detailed: 'clean', findings: [] }, engine: null, completedAt: '2026-11-26T00:00:01.000Z', scanDurationMs: 2 };

describe('pending inserts', () => {
  it('wait for the outcome and commit with it', () => {
    const scan = newScan();
    expect(store.insertPending(scan)).toBe('inserted');
    expect(seen(scan.id)).toBeNull();
    // The service itself sees it (the runner, a 408's check).
    expect(store.get(scan.id)?.status).toBe('processing');
    store.complete(scan.id, verdict, processingScan(scan));
    expect(seen(scan.id)).toBe('completed');
    expect(db.isTransaction).toBe(false);
  });

  it('are lost with the process when nothing committed them (the client was told nothing)', () => {
    const scan = newScan();
    store.insertPending(scan);
    db.close();
    expect(seen(scan.id)).toBeNull();
  });

  it('commit before a read that answers a client, by id and by reference', () => {
    const byId = newScan();
    store.insertPending(byId);
    expect(store.findById('integration', byId.id)?.status).toBe('processing');
    expect(seen(byId.id)).toBe('processing');

    const byReference = newScan();
    store.insertPending(byReference);
    expect(store.findByReference('integration', byReference.externalReferenceId as string)?.id).toBe(byReference.id);
    expect(seen(byReference.id)).toBe('processing');
  });

  it('commit with any durable write, and on commit()', () => {
    const first = newScan();
    store.insertPending(first);
    expect(store.insert(newScan())).toBe('inserted');
    expect(seen(first.id)).toBe('processing');

    const second = newScan();
    store.insertPending(second);
    store.commit();
    expect(seen(second.id)).toBe('processing');
    expect(db.isTransaction).toBe(false);
    store.commit(); // nothing waits: a no-op
  });

  it('a duplicate reference leaves no transaction open, and a webhook transaction still works after a pending insert', () => {
    const scan = newScan();
    expect(store.insert(scan)).toBe('inserted');
    expect(store.insertPending(newScan({ externalReferenceId: scan.externalReferenceId }))).toBe('duplicate');
    expect(db.isTransaction).toBe(false);

    const waiting = newScan();
    store.insertPending(waiting);
    const inTransaction = newScan();
    expect(store.transaction(() => store.insert(inTransaction))).toBe('inserted');
    expect([seen(waiting.id), seen(inTransaction.id)]).toEqual(['processing', 'processing']);
  });
});

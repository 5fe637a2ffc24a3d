// Grouped commits (group-commit.ts) on a real history file: a write that may
// wait is seen by this connection at once and by another only once committed
// (with the next write that must be durable, committed(), the window, flush or
// close); each write is all or none; and `apply` gives the record as a read would.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { committedStatus as committedOf } from './fixtures/committed-status.ts';
import { makeRecord } from './fixtures/records.ts';

let dataDir: string;
let history: History;
const lateErrors: unknown[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verdict-group-commit-'));
  history = openHistory(dataDir, { commitWindowMs: 60_000, onLateCommitError: (error) => lateErrors.push(error) });
});
afterEach(() => {
  history.close();
  rmSync(dataDir, { recursive: true, force: true });
  expect(lateErrors).toEqual([]);
});

/** The status of a row as another connection sees it (committed data only). */
const committedStatus = (id: string) => committedOf(history.file, id);

describe('grouped commits', () => {
  it('keeps a soon write from other connections until the next commit, and shows it on this one at once', async () => {
    const record = history.insert(makeRecord({ status: 'queued' }));
    const uploading = history.apply(record, { status: 'uploading' }, 'soon');
    expect(uploading?.status).toBe('uploading');
    expect(history.get(record.id)?.status).toBe('uploading');
    expect(committedStatus(record.id)).toBe('queued');
    await history.committed();
    expect(committedStatus(record.id)).toBe('uploading');

    history.apply(uploading!, { status: 'processing' }, 'soon');
    expect(committedStatus(record.id)).toBe('uploading');
    history.flush();
    expect(committedStatus(record.id)).toBe('processing');
  });

  it('commits the waiting writes with a write that must be durable now, and at close', () => {
    const first = history.insert(makeRecord({ status: 'queued' }));
    const second = history.insert(makeRecord({ status: 'queued' }));
    history.apply(first, { status: 'uploading' }, 'soon');
    history.apply(second, { status: 'uploading' }, 'now');
    expect(committedStatus(first.id)).toBe('uploading');
    expect(committedStatus(second.id)).toBe('uploading');

    history.apply(first, { status: 'processing' }, 'soon');
    history.close();
    expect(committedStatus(first.id)).toBe('processing');
    history = openHistory(dataDir);
  });

  it('commits within the window when nothing else does', async () => {
    history.close();
    history = openHistory(dataDir, { commitWindowMs: 5 });
    const record = history.insert(makeRecord({ status: 'queued' }));
    history.apply(record, { status: 'uploading' }, 'soon');
    expect(committedStatus(record.id)).toBe('queued');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(committedStatus(record.id)).toBe('uploading');
  });

  it('rolls back only the write that failed, and keeps insertMany all or none inside a waiting group', () => {
    const record = history.insert(makeRecord({ status: 'queued' }));
    history.apply(record, { status: 'uploading' }, 'soon');
    const duplicate = makeRecord({ status: 'queued' });
    expect(() => history.insertMany([makeRecord({ status: 'queued' }), duplicate, { ...duplicate }])).toThrow();
    expect(history.counts()).toEqual({ queued: 0, uploading: 1, processing: 0 });
    history.flush();
    expect(committedStatus(record.id)).toBe('uploading');
  });

  it('gives the record as a read would, and null for a row that is gone', () => {
    const record = history.insert(makeRecord({ status: 'uploading' }));
    const error = { code: 'scan_failed', message: 'The scan failed.' };
    const written = history.apply(record, { status: 'failed', error, findings: [], durationMs: 12, safe: null, completedAt: '2026-02-01T00:00:00.000Z' }, 'soon');
    expect(written).toEqual(history.get(record.id));
    history.flush();
    expect(history.keepLast(0)).toEqual([record.id]);
    expect(history.apply(record, { status: 'completed' }, 'soon')).toBeNull();
  });
  it('exports only what is on disk: a verdict waiting for its grouped commit is committed before it is read', async () => {
    const records = Array.from({ length: 3 }, () => history.insert(makeRecord({ status: 'queued' })));
    history.apply(records[1]!, { status: 'completed', safe: true }, 'soon');
    const chunks: string[] = [];
    const target = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk.toString()), done()) });
    await history.exportJson(target, { order: 'oldest' });
    const exported = JSON.parse(chunks.join('')) as Array<{ id: string; status: string }>;
    expect(exported.map((row) => [row.id, row.status])).toEqual(records.map((record, i) => [record.id, i === 1 ? 'completed' : 'queued']));
    for (const row of exported) expect(committedStatus(row.id), row.id).toBe(row.status);
  });

  it('tells afterCommit callbacks once their writes are on disk, in order; at once when nothing waits', () => {
    const told: Array<[string, string | undefined]> = [];
    history.afterCommit(() => told.push(['nothing waiting', undefined]));
    expect(told).toEqual([['nothing waiting', undefined]]);

    const first = history.insert(makeRecord({ status: 'queued' }));
    const second = history.insert(makeRecord({ status: 'queued' }));
    history.apply(first, { status: 'completed', safe: true }, 'soon');
    history.afterCommit(() => told.push(['first', committedStatus(first.id)]));
    history.apply(second, { status: 'uploading' }, 'soon');
    history.afterCommit(() => told.push(['second', committedStatus(second.id)]));
    expect(told).toHaveLength(1);
    // A write that must be durable now commits the group: the callbacks run right after, before it returns.
    history.update(second.id, { pendingReason: 'x' });
    expect(told).toEqual([
      ['nothing waiting', undefined],
      ['first', 'completed'],
      ['second', 'uploading'],
    ]);
  });
});

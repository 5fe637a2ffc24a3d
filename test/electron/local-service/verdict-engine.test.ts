// The local service says which engine made each verdict (`engine`, an addition of
// ours: SERVICE-DECISIONS.md): in the sync answer, GETs and webhooks' scans; kept in
// its database (schema 3), and null for scans completed before it was kept.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { scanSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { FailingEngine, getScan, startTestService, submit } from './harness.ts';

const BUILTIN = { name: 'builtin', version: null, signatures: null };

let dataDir: string;
beforeEach(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'verdict-verdict-engine-')), 'data');
});
afterEach(async () => {
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

describe('engine in the answers', () => {
  it('a completed scan names its engine in the sync answer and in GET; a failed one has none', async () => {
    const service = await startTestService({ dataDir });
    try {
      const clean = (await submit(service.url, { mode: 'sync', file: 'words\n' })).body;
      expect(clean.engine).toEqual(BUILTIN);
      const eicar = terminalScanSchema.parse((await submit(service.url, { mode: 'sync', file: EICAR_TEST_STRING })).body);
      expect(eicar).toMatchObject({ result: { safe: false }, engine: BUILTIN });
      expect((await getScan(service.url, clean.id as string)).body.engine).toEqual(BUILTIN);
    } finally {
      await service.close();
    }
    const broken = await startTestService({ engine: new FailingEngine() });
    try {
      const failed = (await submit(broken.url, { mode: 'sync' })).body;
      expect(failed.status).toBe('failed');
      expect(failed).not.toHaveProperty('engine');
    } finally {
      await broken.close();
    }
  });

  it('a database from before (schema 2) is migrated: its completed scans answer engine null, new ones their engine', async () => {
    const first = await startTestService({ dataDir });
    const old = (await submit(first.url, { mode: 'sync', file: 'old\n' })).body;
    await first.close();
    // Back to schema 2, as a Verdict before issue 14 left it.
    const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    db.exec('ALTER TABLE scans DROP COLUMN engine_json; PRAGMA user_version = 2;');
    db.close();

    const second = await startTestService({ dataDir });
    try {
      const before = (await getScan(second.url, old.id as string)).body;
      expect(before).toMatchObject({ status: 'completed', engine: null });
      expect((await submit(second.url, { mode: 'sync', file: 'new\n' })).body.engine).toEqual(BUILTIN);
    } finally {
      await second.close();
    }
    const check = new DatabaseSync(join(dataDir, 'local-service.sqlite'), { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
    check.close();
  });

  it('a damaged engine cell reads as not known, never as a failed GET', async () => {
    const first = await startTestService({ dataDir });
    const scan = (await submit(first.url, { mode: 'sync', file: 'x\n' })).body;
    await first.close();
    const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    db.prepare("UPDATE scans SET engine_json = '{not json' WHERE id = ?").run(scan.id as string);
    db.close();
    const second = await startTestService({ dataDir });
    try {
      const reply = await getScan(second.url, scan.id as string);
      expect(reply.status).toBe(200);
      expect(reply.body.engine).toBeNull();
    } finally {
      await second.close();
    }
  });
});

describe("clients read engine tolerantly (other services may lack it, or send something else)", () => {
  const base = {
    id: 's1',
    status: 'completed',
    execution_mode: 'sync',
    file_name: 'a.txt',
    file_size: 1,
    file_type: 'text/plain',
    file_hash: { md5: '0'.repeat(32), sha1: '0'.repeat(40), sha256: '0'.repeat(64) },
    result: { safe: true, detailed: 'clean', findings: [] },
    completed_at: '2026-11-25T10:00:00.000Z',
    scan_duration_ms: 3,
    submitted_at: '2026-11-25T10:00:00.000Z',
  };

  it('absent: undefined; null: null; ClamAV with signatures: kept', () => {
    expect(terminalScanSchema.parse(base).engine).toBeUndefined();
    expect(terminalScanSchema.parse({ ...base, engine: null }).engine).toBeNull();
    const clamav = { name: 'clamav', version: '1.4.6', signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' } };
    expect(terminalScanSchema.parse({ ...base, engine: { ...clamav, extra: 1 } }).engine).toEqual(clamav);
  });

  it('unreadable (an unknown engine, a bad date, the wrong type): dropped, and the verdict still reads', () => {
    for (const engine of [{ name: 'other', version: null, signatures: null }, { name: 'clamav', version: '1', signatures: { version: 1, date: 'soon' } }, 'clamav', 42]) {
      const parsed = scanSchema.safeParse({ ...base, engine });
      expect(parsed.success).toBe(true);
      expect(parsed.data?.engine).toBeUndefined();
      expect(parsed.data?.result).toEqual(base.result);
    }
  });
});

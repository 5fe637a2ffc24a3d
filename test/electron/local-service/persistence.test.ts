// A restart loses nothing: scans live in SQLite in the data directory; scans
// left `processing` are scanned again on start, or failed as `interrupted`
// when their upload is gone.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asyncSubmissionSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { GatedEngine, getByReference, getScan, startTestService, submit, waitFor, waitForTerminal } from './harness.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'verdict-persist-')), 'data');
});
afterEach(async () => {
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

/** Submits async to a service whose engine never finishes, then stops it mid-scan. */
async function leaveOneProcessing(reference: string): Promise<string> {
  const engine = new GatedEngine();
  const first = await startTestService({ dataDir, engine });
  const submission = asyncSubmissionSchema.parse((await submit(first.url, { attributes: { file_name: 'p.txt', external_reference_id: reference } })).body);
  await waitFor(async () => engine.started > 0, 'the scan to start');
  await first.close();
  return submission.id;
}

describe('restart', () => {
  it('keeps completed scans, by id and by reference', async () => {
    const first = await startTestService({ dataDir });
    const before = terminalScanSchema.parse((await submit(first.url, { mode: 'sync', attributes: { file_name: 'k.txt', external_reference_id: 'keep-1' } })).body);
    await first.close();

    const second = await startTestService({ dataDir });
    try {
      expect((await getScan(second.url, before.id)).body).toEqual(before);
      expect((await getByReference(second.url, 'keep-1')).body).toEqual(before);
      // The reference is still taken.
      expect((await submit(second.url, { attributes: { file_name: 'k', external_reference_id: 'keep-1' } })).status).toBe(409);
    } finally {
      await second.close();
    }
  });

  it('scans again what was left processing when its upload survived', async () => {
    const id = await leaveOneProcessing('resume-1');
    expect(existsSync(join(dataDir, 'uploads', id))).toBe(true);
    const stored = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    expect(stored.prepare('SELECT status FROM scans WHERE id = ?').get(id)).toEqual({ status: 'processing' });
    stored.close();

    const second = await startTestService({ dataDir });
    try {
      const done = terminalScanSchema.parse((await waitForTerminal(second.url, id)).body);
      expect(done).toMatchObject({ id, status: 'completed', external_reference_id: 'resume-1' });
      expect(done.result?.safe).toBe(true);
      await waitFor(async () => (await readdir(join(dataDir, 'uploads'))).length === 0, 'the upload to be deleted');
    } finally {
      await second.close();
    }
  });

  it('fails what was left processing when its upload is gone, saying why', async () => {
    const id = await leaveOneProcessing('gone-1');
    await rm(join(dataDir, 'uploads', id));

    const second = await startTestService({ dataDir });
    try {
      const reply = await getScan(second.url, id);
      const failed = terminalScanSchema.parse(reply.body);
      expect(failed.status).toBe('failed');
      expect(failed.error?.code).toBe('interrupted');
      expect(failed.error?.message).toMatch(/stopped/);
      expect(failed).not.toHaveProperty('result');
      const german = terminalScanSchema.parse((await getScan(second.url, id, { language: 'de' })).body);
      expect(german.error?.message).not.toBe(failed.error?.message);
    } finally {
      await second.close();
    }
  });

  it('never stores an API key', async () => {
    const first = await startTestService({ dataDir });
    await submit(first.url, { mode: 'sync' });
    await first.close();
    const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    const dump = JSON.stringify(db.prepare('SELECT * FROM scans').all());
    db.close();
    expect(dump).not.toContain('test-key-alpha');
    expect(dump).toMatch(/"integration_id":"[0-9a-f]{32}"/);
  });

  it('refuses a database from a newer schema', async () => {
    const first = await startTestService({ dataDir });
    await first.close();
    const db = new DatabaseSync(join(dataDir, 'local-service.sqlite'));
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expect(startTestService({ dataDir })).rejects.toThrow(/schema version 99/);
  });
});

// A job started with basic checks only (the CLI's --basic-only) while ClamAV, known here, is
// gone, resumed after a restart: the choice is kept with the job, so the rest of its walk and
// the rows a crash left unsent get the built-in engine's verdicts too. Without it they wait for
// ClamAV (here for two minutes, far beyond the tests' waits). Real core, real embedded service,
// real files and history; skipped when a system clamd answers.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, type TestContext } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { writeKnownClamav } from '../../../electron/engine/live/clamav-known.ts';
import { clamdAnswers } from '../../../electron/engine/own-clamd/clamd-commands.ts';
import { DEFAULT_CLAMD_SOCKETS } from '../../../electron/engine/select-engine.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { makeRecord } from '../history/fixtures/records.ts';
import { FAST, until } from '../scans/harness.ts';
import { jobStateFor, repeats, writeTree, type JobRow } from './job-kit.ts';

const fixture = useCoreFixture('verdict-jobs-basic-resume-');
const BASIC_CLEAN = 'clean (basic checks only; ClamAV not available)';
const FILES = 700;

/** ClamAV known here and gone; false (test skipped) when a system clamd answers. */
async function clamavGone(context: TestContext): Promise<boolean> {
  const answers = await Promise.all(DEFAULT_CLAMD_SOCKETS.map((socketPath) => clamdAnswers({ socketPath }, 1_000)));
  if (answers.includes(true)) {
    context.skip();
    return false;
  }
  writeKnownClamav(join(fixture.dataDir(), 'local-service'), { source: 'system', where: 'unix:/run/clamav/clamd.ctl', at: '2026-11-20T10:00:00.000Z' });
  return true;
}

/** `path`: how files reach the embedded engine (default: straight, no HTTP). */
const openCore = (path: 'engine' | 'http' = 'engine'): Promise<CoreInternals> =>
  fixture.open({ ...FAST, engine: { live: { waitLimitMs: 120_000, recheckMs: 100 } } }, { localService: { engine: 'auto', ownClamd: false, path } });

interface Row extends JobRow {
  detailed: string | null;
}

function rowsOf(jobId: number): Row[] {
  const db = new DatabaseSync(join(fixture.dataDir(), 'history.sqlite'), { readOnly: true });
  try {
    // A finished job's clean files are in the compact store (history/job-files/), their detail text in their kind.
    return db
      .prepare(
        `SELECT path, status, verdict, detailed FROM (
           SELECT 0 AS store, seq AS at, path, status, verdict, detailed FROM scans WHERE job_id = ?
           UNION ALL SELECT 1, c.id, f.path || c.name, 'completed', 'safe', k.detailed FROM job_clean_files AS c
             JOIN job_folders AS f ON f.id = c.folder_id JOIN job_file_kinds AS k ON k.id = c.kind_id WHERE c.job_id = ?
         ) ORDER BY store, at`,
      )
      .all(jobId, jobId) as unknown as Row[];
  } finally {
    db.close();
  }
}

/** When each of the job's files was queued, wherever its row is (a clean file's moved into the compact store at its verdict). */
function queuedAtOf(jobId: number): Array<{ path: string; queuedAt: string }> {
  const db = new DatabaseSync(join(fixture.dataDir(), 'history.sqlite'), { readOnly: true });
  try {
    return db
      .prepare(
        `SELECT path, queued_at AS queuedAt FROM scans WHERE job_id = ?
         UNION ALL SELECT f.path || c.name, strftime('%Y-%m-%dT%H:%M:%fZ', c.queued_ms / 1000.0, 'unixepoch') FROM job_clean_files AS c
           JOIN job_folders AS f ON f.id = c.folder_id WHERE c.job_id = ?`,
      )
      .all(jobId, jobId) as unknown as Array<{ path: string; queuedAt: string }>;
  } finally {
    db.close();
  }
}

const pipelineQuiet = (core: CoreInternals) => {
  const state = core.pipelineState();
  return state.ready === 0 && state.active === 0 && state.following === 0;
};

function expectAllBasicChecked(jobId: number, files: readonly string[]) {
  const rows = rowsOf(jobId);
  expect(repeats(rows)).toEqual([]);
  expect(new Set(rows.map((row) => row.path))).toEqual(new Set(files));
  expect(rows.filter((row) => row.status !== 'completed' || row.detailed !== BASIC_CLEAN)).toEqual([]);
}

describe('a job started with basic checks only, resumed', () => {
  it('after a restart mid-walk, scans the rest of its files with basic checks only', async (context) => {
    if (!(await clamavGone(context))) return;
    const root = join(fixture.dir.path, 'tree');
    const files = await writeTree(root, FILES);
    const first = await openCore();
    const started = await first.jobs.start({ kind: 'custom', roots: [root], origin: 'cli', basicOnly: true });
    // Held at its first batch (a pause right after start lands before it is written), scanned, then closed running.
    first.jobs.pause(started.id);
    // Terminal rows are committed within the history's commit window after the pipeline is done with them.
    const scanned = () => rowsOf(started.id).every((row) => row.status === 'completed');
    await until(() => rowsOf(started.id).length > 0 && pipelineQuiet(first) && scanned(), 'the first batch is scanned');
    const before = rowsOf(started.id);
    expect(before.length).toBeLessThan(FILES);
    expect(before.every((row) => row.detailed === BASIC_CLEAN)).toBe(true);
    first.jobs.resume(started.id);
    await first.close();

    const second = await openCore();
    const job = await second.jobs.finished(started.id);
    expect(job).toMatchObject({ status: 'completed', counts: { found: FILES, scanned: FILES, couldNotScan: 0, skipped: 0 } });
    expectAllBasicChecked(started.id, files);
  });

  it('after a crash, sends the rows it left unsent with basic checks only, then walks the rest so too', async (context) => {
    if (!(await clamavGone(context))) return;
    const root = join(fixture.dir.path, 'tree');
    const files = await writeTree(root, 60);
    // What a crash right after the first batch was written leaves: the job running, its rows queued and never sent.
    const history = openHistory(fixture.dataDir());
    const { id: _id, ...draft } = jobStateFor({ roots: [root], origin: 'cli', startedAt: new Date().toISOString() });
    const jobId = history.jobs.insert(draft, { basicOnly: true });
    const unsent = files.slice(0, 10).map((path) => makeRecord({ path, fileName: path.split('/').at(-1)!, status: 'queued', origin: 'cli', backend: 'local' }));
    history.insertMany(unsent, jobId);
    expect(history.jobs.runOptions(jobId)).toEqual({ basicOnly: true });
    expect(history.jobs.unfinishedBasicOnly()).toEqual([jobId]);
    history.close();

    const core = await openCore();
    const job = await core.jobs.finished(jobId);
    expect(job).toMatchObject({ status: 'completed', counts: { scanned: 60, couldNotScan: 0 } });
    expectAllBasicChecked(jobId, files);
    // The rows the crash left are the ones scanned (queued before the restart), not new rows for their files.
    const queuedBefore = new Set(unsent.map((record) => record.queuedAt));
    expect(queuedAtOf(jobId).filter((row) => queuedBefore.has(row.queuedAt)).map((row) => row.path).sort()).toEqual(files.slice(0, 10).sort());
  });

  it.for(['http', 'engine'] as const)('after a restart, lets its rows that waited at the embedded service (%s path) go on with basic checks only', async (path, context) => {
    if (!(await clamavGone(context))) return;
    const root = join(fixture.dir.path, 'tree');
    const files = await writeTree(root, 5);
    // Its files handed to the service, waiting there for ClamAV (the state a basic-only job's rows are in
    // when the app stops between their upload and the service's switch; made here without the flag).
    // At the engine (no HTTP) they wait as sent, their verdict not yet asked for again after a restart.
    const first = await openCore(path);
    const started = await first.jobs.start({ kind: 'custom', roots: [root], origin: 'cli', mode: 'async' });
    const waiting = () => rowsOf(started.id).filter((row) => row.status === (path === 'http' ? 'processing' : 'uploading')).length === 5;
    await until(waiting, 'its rows wait at the service');
    await first.close();
    expect(waiting()).toBe(true);
    const db = new DatabaseSync(join(fixture.dataDir(), 'history.sqlite'));
    db.prepare('UPDATE jobs SET run_json = ? WHERE id = ?').run(JSON.stringify({ mode: 'async', basicOnly: true }), started.id);
    db.close();

    const second = await openCore(path);
    const job = await second.jobs.finished(started.id);
    expect(job).toMatchObject({ status: 'completed', counts: { scanned: 5, couldNotScan: 0 } });
    expectAllBasicChecked(started.id, files);
  });
});

describe("a job's run options in the history", () => {
  it('are read back as stored; a job stored without them (before schema 10) or with an unreadable value runs as by default', () => {
    const history = openHistory(join(fixture.dir.path, 'history'));
    try {
      const { id: _id, ...draft } = jobStateFor();
      const forced = history.jobs.insert(draft, { mode: 'async', force: true });
      const plain = history.jobs.insert(draft);
      expect(history.jobs.runOptions(forced)).toEqual({ mode: 'async', force: true });
      expect(history.jobs.runOptions(plain)).toEqual({});
      expect(history.jobs.unfinishedBasicOnly()).toEqual([]);
    } finally {
      history.close();
    }
    const db = new DatabaseSync(join(fixture.dir.path, 'history', 'history.sqlite'));
    db.exec("UPDATE jobs SET run_json = NULL WHERE id = 1; UPDATE jobs SET run_json = '{not json' WHERE id = 2;");
    db.close();
    const again = openHistory(join(fixture.dir.path, 'history'));
    try {
      expect(again.jobs.runOptions(1)).toEqual({});
      expect(again.jobs.runOptions(2)).toEqual({});
    } finally {
      again.close();
    }
  });
});

// Each of a job's files is told once (the CLI prints it, the window lists it), and only once its
// verdict is on disk, when verdicts wait for the history's grouped commit at the walk's end or when
// a caller attaches (the CLI run again). Real history file, its group commit and the real jobs; the
// pipeline is a script that writes and tells as the real one does (saveHeld: 'soon' writes are told
// after their commit), so that a verdict can wait for its commit at the moment chosen.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { createJobs, type JobRequest, type Jobs } from '../../../electron/jobs/jobs.ts';
import { createScanEvents, type ScanEvents } from '../../../electron/scans/events.ts';
import type { SubmitOptions } from '../../../electron/scans/pipeline/options.ts';
import { queuedRecord, TERMINAL_STATUSES, type ScanRecord } from '../../../shared/scans/record.ts';
import { committedStatus } from '../history/fixtures/committed-status.ts';
import { tempDir } from '../scans/harness.ts';

const FILES = 40;
/** The files whose verdicts wait for the grouped commit. */
const HELD = 6;

let dir: Awaited<ReturnType<typeof tempDir>>;
let history: History;
let events: ScanEvents;
let jobs: Jobs;
beforeEach(async () => {
  dir = await tempDir('verdict-jobs-told-');
  // A long commit window: a held verdict is committed by a flush, never by the clock during the test.
  history = openHistory(join(dir.path, 'data'), { commitWindowMs: 60_000 });
  events = createScanEvents({ counts: () => ({ queued: 0, uploading: 0, processing: 0 }) });
});
afterEach(async () => {
  await jobs?.close();
  events.close();
  history.close();
  await dir.remove();
});

/** The job's rows, queued. */
function rowsFor(jobId: number): ScanRecord[] {
  return Array.from({ length: FILES }, (_, i) => ({
    ...queuedRecord({ id: `r${i}`, path: `/tree/f-${i}.txt`, fileName: `f-${i}.txt`, origin: 'cli', backend: 'local', externalReferenceId: `ref-${i}`, queuedAt: new Date().toISOString() }),
    jobId,
  }));
}

/**
 * A verdict written as the pipeline writes it (saveHeld): 'now' is told at once, 'soon' once committed. A clean
 * verdict moves the file into the job's compact store: told under its new id, with the one it had.
 */
function judge(record: ScanRecord, durability: 'now' | 'soon'): void {
  const saved = history.apply(record, { status: 'completed', safe: true, pendingReason: null, completedAt: new Date().toISOString() }, durability);
  const tell = () => events.record(saved!, saved!.id === record.id ? undefined : record.id);
  if (durability === 'now') tell();
  else history.afterCommit(tell);
}

/** Whether the row's verdict is committed: read through a connection of its own, as another process would. */
function committedDone(id: string): boolean {
  const status = committedStatus(join(dir.path, 'data', 'history.sqlite'), id);
  return status !== undefined && TERMINAL_STATUSES.includes(status as ScanRecord['status']);
}

/** The jobs over a pipeline that runs `script` as the job's walk; every file told is recorded with whether it was committed then. */
function startJobs(script: (options: SubmitOptions, rows: ScanRecord[]) => Promise<void>) {
  const told: Array<{ path: string; committed: boolean }> = [];
  jobs = createJobs({
    history,
    events,
    intake: async function* () {},
    places: { platform: 'linux', home: dir.path, env: {} },
    dataDir: join(dir.path, 'data'),
    pipeline: {
      async submit(_paths, options) {
        const rows = rowsFor(options.jobId!);
        history.insertMany(rows, options.jobId);
        for (const row of rows) events.record(row);
        await options.afterBatch!(rows);
        await script(options, rows);
        return { queued: FILES, skipped: 0, linksNotFollowed: 0, failed: 0, ids: [] };
      },
    },
  });
  jobs.onEvent((event) => {
    if (event.type === 'file') told.push({ path: event.record.path, committed: committedDone(event.record.id) });
  });
  return told;
}

const request: JobRequest = { kind: 'custom', roots: ['/tree'], origin: 'cli' };

function expectEachToldOnceCommitted(told: ReadonlyArray<{ path: string; committed: boolean }>): void {
  const paths = told.map((entry) => entry.path);
  expect(paths.length - new Set(paths).size, 'files told twice').toBe(0);
  expect(new Set(paths)).toEqual(new Set(rowsFor(1).map((row) => row.path)));
  expect(told.filter((entry) => !entry.committed).map((entry) => entry.path), 'told before committed').toEqual([]);
}

describe("a job's files are told once, after their commit", () => {
  it('verdicts still waiting for their commit when the walk ends are told, not let go unheard', async () => {
    const told = startJobs(async (_options, rows) => {
      // The engine's answers: most committed and told at once, the last ones waiting for the grouped commit
      // as the walk's last callback ends it (one turn of the event loop under load).
      rows.forEach((row, i) => judge(row, i < FILES - HELD ? 'now' : 'soon'));
    });
    const started = await jobs.start(request);
    const job = await jobs.finished(started.id);
    await history.committed();

    expect(job).toMatchObject({ status: 'completed', counts: { scanned: FILES } });
    expectEachToldOnceCommitted(told);
  });

  it('a caller attaching to the running job (the CLI run again) hears of held verdicts only once they are committed', async () => {
    let endWalk = () => {};
    const walking = new Promise<void>((resolve) => (endWalk = resolve));
    let rows: ScanRecord[] = [];
    const told = startJobs(async (_options, written) => {
      rows = written;
      written.slice(0, FILES - HELD).forEach((row) => judge(row, 'now'));
      await walking;
    });
    const started = await jobs.start(request);
    while (rows.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // Judged while nobody attached; their commit waits (the CLI's `settled` gives up on nothing here).
    rows.slice(FILES - HELD).forEach((row) => judge(row, 'soon'));

    const { continued } = await jobs.continueOrStart({ ...request, settled: () => false });
    expect(continued).toBe(true);
    endWalk();
    const job = await jobs.finished(started.id);
    await history.committed();

    expect(job).toMatchObject({ status: 'completed', counts: { scanned: FILES } });
    expectEachToldOnceCommitted(told);
  });
});

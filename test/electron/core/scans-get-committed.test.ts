// The window's detail view of one scan (scans.get) shows what is on disk: a verdict still waiting
// for the history's grouped commit is committed before it is read, as lists and exports do.
// Real history file; the scan's row is read back through a connection of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createGuard } from '../../../electron/core/core-context.ts';
import { scansApi } from '../../../electron/core/scans-api.ts';
import { openHistory, type History } from '../../../electron/history/history.ts';
import { createLogger } from '../../../electron/logging/logger.ts';
import { committedStatus } from '../history/fixtures/committed-status.ts';
import { makeRecord } from '../history/fixtures/records.ts';

let dir: string;
let history: History;
beforeEach(() => {
  dir = mkdtempSync(join(os.tmpdir(), 'verdict-scans-get-'));
  history = openHistory(join(dir, 'data'), { commitWindowMs: 60_000 });
});
afterEach(() => {
  history.close();
  rmSync(dir, { recursive: true, force: true });
});

it('scans.get commits a waiting verdict before it shows it', async () => {
  const record = history.insert(makeRecord({ status: 'queued' }));
  history.apply(record, { status: 'completed', safe: true }, 'soon');
  const api = scansApi({ guard: createGuard(createLogger({ file: join(dir, 'core.log') }), dir), history, submit: null as never, scans: null as never, events: null as never, protection: null as never, allowBasicOnly: () => false });

  const shown = await api.get(record.id);
  expect(shown).toMatchObject({ ok: true, value: { status: 'completed', safe: true } });
  expect(committedStatus(history.file, record.id)).toBe('completed');
});

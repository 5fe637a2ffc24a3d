// The whole core killed in the middle of a quarantine action: a child process
// runs createCore and quarantines, restores, allows or deletes a real EICAR
// file through the core's API, and dies by SIGKILL at a named step. A new core
// on the same data dir must then show one truth: exactly one copy of the
// content (in quarantine or at its place; none after a delete), a scan record
// whose disposition matches its quarantine entry's state, and only actions the
// UI may offer for that record that really work. Also a quarantined file that
// vanished (`lost`), at start and while running.
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, type QuarantineStep } from '../../../electron/quarantine/quarantine.ts';
import { bulkGroups } from '../../../renderer/scans/bulk-groups.ts';
import type { QuarantineEntry, QuarantineState } from '../../../shared/quarantine/entry.ts';
import type { Disposition, ScanRecord } from '../../../shared/scans/record.ts';
import { copiesOf, hasOtherDevice, otherDeviceDir } from '../quarantine/support.ts';
import { EICAR_TEST_STRING, writeEicar } from '../scans/harness.ts';
import { runNodeScript } from '../../support/node-child.ts';
import { useCoreFixture } from './core-fixture.ts';

const CHILD = join(import.meta.dirname, 'fixtures', 'quarantine-action-child.ts');
const OTHER_DEVICE = await hasOtherDevice();

const { dir, dataDir, open, onCleanup } = useCoreFixture('verdict-core-quarantine-crash-');

type Op = 'quarantine' | 'restore' | 'allow' | 'delete';

/** What a record must say for each final state of its entry (a lost file is gone: nothing to restore or delete). */
const DISPOSITION_FOR: Record<Exclude<QuarantineState, 'quarantining' | 'restoring' | 'deleting'>, Disposition> = {
  quarantined: 'quarantined',
  restored: 'restored',
  allowed: 'allowed',
  deleted: 'deleted',
  lost: 'deleted',
};

type UiAction = 'move-to-quarantine' | 'allow' | 'restore' | 'allow-and-restore' | 'delete' | 'stop-allowing';

/**
 * The actions the UI offers for one record: the detail panel's buttons by disposition
 * (renderer/detail/ThreatResponse.tsx) and the bulk bar's groups (the real bulkGroups()).
 */
function offeredActions(record: ScanRecord): UiAction[] {
  const detail: Record<Disposition | 'none', UiAction[]> = {
    none: ['move-to-quarantine', 'allow'],
    quarantine_pending: [],
    quarantine_failed: ['move-to-quarantine'],
    quarantined: ['restore', 'allow-and-restore', 'delete'],
    restored: [],
    deleted: [],
    allowed: ['stop-allowing'],
  };
  const groups = bulkGroups([record]);
  const bulk: UiAction[] = [
    ...(groups.quarantinable.length > 0 ? (['move-to-quarantine'] as const) : []),
    ...(groups.inQuarantine.length > 0 ? (['restore', 'allow-and-restore', 'delete'] as const) : []),
  ];
  return [...new Set([...detail[record.disposition ?? 'none'], ...bulk])];
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const storedPath = (entry: Pick<QuarantineEntry, 'id'>) => join(dataDir(), QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, entry.id);

/** A scanned EICAR file in a folder of its own: quarantined (the manual-scan setting says so), or only notified about. */
async function threat(core: CoreInternals, options: { quarantine: boolean; base?: string }) {
  value(await core.settings.update({ threatAction: options.quarantine ? 'quarantine' : 'notify' }));
  const folder = join(options.base ?? dir.path, `in-${Math.random().toString(36).slice(2, 8)}`);
  await mkdir(folder, { recursive: true });
  const path = await writeEicar(join(folder, 'eicar.com'));
  const submitted = value(await core.submit([path], { origin: 'drop' }));
  await core.threatsSettled();
  const record = value(await core.scans.get(submitted.ids[0]!));
  expect(record).toMatchObject({ status: 'completed', safe: false, disposition: options.quarantine ? 'quarantined' : null });
  const entry = options.quarantine ? value(await core.quarantine.forRecord(record.id)) : null;
  return { folder, path, record, entry };
}

const runChild = (env: Record<string, string>) => runNodeScript(CHILD, { QC_DATA_DIR: dataDir(), ...env }, 40_000);

/** Prepares the threat in a first core, closes it, and kills a child core at `step` of `op`. */
async function killedDuring(op: Op, step: QuarantineStep, base?: string) {
  const first = await open();
  const prepared = await threat(first, { quarantine: op !== 'quarantine', base });
  await first.close();
  const run = await runChild({ QC_OP: op, QC_ID: op === 'quarantine' ? prepared.record.id : prepared.entry!.id, QC_KILL_AT: step });
  expect(run.signal, `${step} was never reached: ${run.stdout} ${run.stderr}`).toBe('SIGKILL');
  return prepared;
}

/** The record and its entry in the core started after the crash, checked to agree with each other and with the disk. */
async function afterRestart(core: CoreInternals, prepared: { folder: string; path: string; record: ScanRecord }) {
  await core.threatsSettled();
  const record = value(await core.scans.get(prepared.record.id));
  const entry = value(await core.quarantine.forRecord(record.id));
  if (!entry) throw new Error('the record has no quarantine entry');
  expect(record.quarantineId).toBe(entry.id);
  expect(record.disposition, `entry ${entry.state}`).toBe(DISPOSITION_FOR[entry.state as keyof typeof DISPOSITION_FOR]);
  expect(record).toMatchObject({ status: 'completed', safe: false });

  // Where the content is, and only there.
  const copies = await copiesOf(EICAR_TEST_STRING, [dataDir(), prepared.folder]);
  const expectedCopies: Partial<Record<QuarantineState, string[]>> = {
    quarantined: [storedPath(entry)],
    restored: [prepared.path],
    allowed: [prepared.path],
    deleted: [],
    lost: [],
  };
  expect(copies, `copies of the content with the entry ${entry.state}`).toEqual(expectedCopies[entry.state]);
  if (entry.state === 'restored' || entry.state === 'allowed') expect(entry.restoredTo).toBe(prepared.path);
  return { record, entry };
}

/** Every action the UI offers for the record works; the first one is carried out and must succeed. */
async function offeredActionWorks(core: CoreInternals, record: ScanRecord, entry: QuarantineEntry): Promise<UiAction | null> {
  const offered = offeredActions(record);
  const inQuarantine = entry.state === 'quarantined';
  // Restore and delete are offered exactly while the file is in quarantine.
  expect(offered.includes('restore')).toBe(inQuarantine);
  expect(offered.includes('delete')).toBe(inQuarantine);
  const [first] = offered;
  if (first === undefined) return null;
  const run: Record<UiAction, () => Promise<{ ok: boolean }>> = {
    'move-to-quarantine': async () => {
      const [outcome] = value(await core.quarantine.add([record.id]));
      return outcome!;
    },
    allow: () => core.quarantine.allowRecord(record.id),
    restore: () => core.quarantine.restore(entry.id),
    'allow-and-restore': () => core.quarantine.allow(entry.id),
    delete: async () => {
      const [outcome] = value(await core.quarantine.deleteMany([entry.id]));
      return outcome!;
    },
    'stop-allowing': () => core.quarantine.revokeAllowed(record.sha256!),
  };
  expect(await run[first](), `${first} on a record that says ${record.disposition}`).toMatchObject({ ok: true });
  return first;
}

const RESTORE_STEPS: QuarantineStep[] = ['restore:intent', 'restore:placed', 'restore:stored-removed', 'restore:done'];
/** Steps after which recovery carries a restore forward (the file is at its place); before them it goes back. */
const RESTORED_FROM: ReadonlySet<QuarantineStep> = new Set(['restore:placed', 'restore:stored-removed', 'restore:done']);

describe('the core killed in the middle of a quarantine action', () => {
  it.each(RESTORE_STEPS.flatMap((step) => [[step, 'restore'] as const, [step, 'allow'] as const]))(
    'at %s (%s): the record follows the entry, and what the UI offers works',
    async (step, op) => {
      const prepared = await killedDuring(op, step);
      const core = await open();
      const { record, entry } = await afterRestart(core, prepared);
      const done = op === 'allow' ? 'allowed' : 'restored';
      expect(entry.state).toBe(RESTORED_FROM.has(step) ? done : 'quarantined');
      // After a restore the file is a threat at its place again (the bulk bar offers to move it); after an allow, "stop allowing".
      const expectedAction = entry.state === 'quarantined' ? 'restore' : op === 'allow' ? 'stop-allowing' : 'move-to-quarantine';
      expect(await offeredActionWorks(core, record, entry)).toBe(expectedAction);
    },
  );

  it.skipIf(!OTHER_DEVICE).each(['restore', 'allow'] as const)('at restore:copied on another device (%s): back in quarantine, and restorable', async (op) => {
    const other = await otherDeviceDir('verdict-core-quarantine-crash-');
    onCleanup(() => other?.remove());
    const prepared = await killedDuring(op, 'restore:copied', other!.path);
    const core = await open();
    const { record, entry } = await afterRestart(core, prepared);
    expect(entry.state).toBe('quarantined');
    expect(await offeredActionWorks(core, record, entry)).toBe('restore');
  });

  it.each(['delete:intent', 'delete:removed'] as const)('at %s: the delete is finished, the record says deleted and leaves with retention', async (step) => {
    const prepared = await killedDuring('delete', step);
    const core = await open();
    const { record, entry } = await afterRestart(core, prepared);
    expect(entry.state).toBe('deleted');
    expect(await offeredActionWorks(core, record, entry)).toBeNull();
    // A record of a file in quarantine is kept by retention; this one is not any more.
    expect(value(await core.history.clear())).toEqual({ removed: 1 });
  });

  it.each(['quarantine:intent', 'quarantine:moved', 'quarantine:done'] as const)('moving to quarantine, at %s: the move is finished once', async (step) => {
    const prepared = await killedDuring('quarantine', step);
    const core = await open();
    const { record, entry } = await afterRestart(core, prepared);
    expect(entry.state).toBe('quarantined');
    expect(value(await core.quarantine.list({ include: 'all' }))).toHaveLength(1);
    expect(await offeredActionWorks(core, record, entry)).toBe('restore');
  });
});

describe('a quarantined file that vanished (lost)', () => {
  it('found missing at start: the record says deleted with the reason, offers nothing, and retention may remove it', async () => {
    const first = await open();
    const prepared = await threat(first, { quarantine: true });
    await first.close();
    await unlink(storedPath(prepared.entry!));

    const core = await open();
    expect(core.startupWarnings.map((warning) => warning.code)).toContain('quarantine_files_lost');
    const { record, entry } = await afterRestart(core, prepared);
    expect(entry.state).toBe('lost');
    expect(record.error).toMatchObject({ code: 'file_lost' });
    expect(await offeredActionWorks(core, record, entry)).toBeNull();
    expect(value(await core.history.clear())).toEqual({ removed: 1 });
  });

  it('killed at restore:intent while the quarantined copy vanished before the next start: lost, and the record says so', async () => {
    const prepared = await killedDuring('restore', 'restore:intent');
    await unlink(storedPath(prepared.entry!));
    const core = await open();
    const { record, entry } = await afterRestart(core, prepared);
    expect(entry.state).toBe('lost');
    expect(record.error).toMatchObject({ code: 'file_lost' });
    expect(await offeredActionWorks(core, record, entry)).toBeNull();
  });

  it('found missing by a restore while running: the failed restore leaves the record saying deleted, not quarantined', async () => {
    const core = await open();
    const prepared = await threat(core, { quarantine: true });
    await unlink(storedPath(prepared.entry!));
    expect(await core.quarantine.restore(prepared.entry!.id)).toMatchObject({ ok: false, error: { code: 'file_lost' } });
    const { record, entry } = await afterRestart(core, prepared);
    expect(entry.state).toBe('lost');
    expect(await offeredActionWorks(core, record, entry)).toBeNull();
  });
});

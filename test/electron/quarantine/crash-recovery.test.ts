// Crash safety: a child process runs one quarantine, restore, allow or delete
// and is killed with SIGKILL at each named step (Q_KILL_AT); recover() in a
// fresh process must then leave exactly one copy of the file, with its
// content, in quarantine or where it belongs, and an entry that says which.
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openQuarantine, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, type QuarantineStep } from '../../../electron/quarantine/quarantine.ts';
import { copiesOf, hasOtherDevice, modeOf, otherDeviceDir, tempDir, writeThreat, type TempDir } from './support.ts';
import { runNodeScript } from '../../support/node-child.ts';

const CHILD = join(import.meta.dirname, 'fixtures', 'quarantine-child.ts');
/** Cross-device cases need a second file system; without one they are skipped (and say so). */
const OTHER_DEVICE = await hasOtherDevice();
const CONTENT = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$-NOT-REALLY-EICAR-';

let dir: TempDir;
let other: TempDir | null;
let data: string;

beforeEach(async () => {
  dir = await tempDir('verdict-quarantine-crash-');
  data = join(dir.path, 'data');
  other = await otherDeviceDir('verdict-quarantine-crash-');
});
afterEach(async () => {
  await dir.remove();
  await other?.remove();
});

const runChild = (env: Record<string, string>) => runNodeScript(CHILD, { Q_DATA_DIR: data, ...env }, 30_000);

const storedFiles = () => readdir(join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME));

/** A file with CONTENT in a folder of its own (on this device, or the other one). */
async function threatIn(where: 'same' | 'other'): Promise<{ folder: string; path: string; hash: string }> {
  const base = where === 'other' ? other!.path : dir.path;
  const folder = join(base, `files-${Math.random().toString(36).slice(2)}`);
  await mkdir(folder);
  const path = join(folder, 'threat.exe');
  const hash = await writeThreat(path, CONTENT, 0o751);
  return { folder, path, hash };
}

/** After recover(): one copy, where the entry says it is. Returns where that is. */
async function checkOneCopy(path: string, folder: string): Promise<'quarantine' | 'original'> {
  const copies = await copiesOf(CONTENT, [data, folder]);
  expect(copies, `copies of the content: ${copies.join(', ')}`).toHaveLength(1);
  const [copy] = copies;
  const partials = (await storedFiles()).filter((name) => name.endsWith('.partial'));
  expect(partials).toEqual([]);
  expect((await readdir(folder)).filter((name) => name.startsWith('.verdict-restore-'))).toEqual([]);
  return copy === path ? 'original' : 'quarantine';
}

const QUARANTINE_STEPS: Record<'same' | 'other', QuarantineStep[]> = {
  same: ['quarantine:intent', 'quarantine:moved', 'quarantine:done'],
  other: ['quarantine:intent', 'quarantine:copied', 'quarantine:stored', 'quarantine:moved', 'quarantine:done'],
};
const RESTORE_STEPS: Record<'same' | 'other', QuarantineStep[]> = {
  same: ['restore:intent', 'restore:placed', 'restore:stored-removed', 'restore:done'],
  other: ['restore:intent', 'restore:copied', 'restore:placed', 'restore:stored-removed', 'restore:done'],
};

describe.each(['same', 'other'] as const)('killed mid-operation, file on the %s device', (where) => {
  const skip = where === 'other' && !OTHER_DEVICE;

  it.skipIf(skip).each(QUARANTINE_STEPS[where])('quarantine killed at %s: recover leaves exactly one copy', async (step) => {
    const { folder, path, hash } = await threatIn(where);
    const run = await runChild({ Q_OP: 'quarantine', Q_PATH: path, Q_SHA256: hash, Q_RECORD: 'rec-1', Q_KILL_AT: step });
    expect(run.signal, `${step} was never reached: ${run.stdout} ${run.stderr}`).toBe('SIGKILL');

    const quarantine = await openQuarantine(data);
    try {
      const report = await quarantine.recover();
      expect(report.problems).toEqual([]);
      const place = await checkOneCopy(path, folder);
      const entries = quarantine.list({ include: 'all' });
      if (place === 'quarantine') {
        expect(entries).toMatchObject([{ state: 'quarantined', originalPath: path, sha256: hash, recordId: 'rec-1' }]);
        const [stored] = await storedFiles();
        expect(await modeOf(join(data, QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, stored!))).toBe(0o400);
        // And it still restores.
        expect(await quarantine.restore(entries[0]!.id)).toMatchObject({ ok: true });
        expect(await readFile(path, 'utf8')).toBe(CONTENT);
      } else {
        // Rolled back: the source was still there (an unfinished copy is discarded); the caller hears about it to try again.
        expect(['quarantine:intent', 'quarantine:copied']).toContain(step);
        expect(entries).toEqual([]);
        expect(report.rolledBack).toMatchObject([{ recordId: 'rec-1', path }]);
        expect(await modeOf(path)).toBe(0o751);
      }
    } finally {
      quarantine.close();
    }
  });

  it.skipIf(skip).each(RESTORE_STEPS[where].flatMap((step) => [[step, 'restore'] as const, [step, 'allow'] as const]))(
    'restore killed at %s (%s): recover leaves exactly one copy',
    async (step, op) => {
      const { folder, path, hash } = await threatIn(where);
      const setup = await openQuarantine(data);
      const entry = await setup.quarantine({ path, sha256: hash });
      setup.close();
      if (!entry.ok) throw new Error(entry.error.message);

      const run = await runChild({ Q_OP: op, Q_ENTRY: entry.value.id, Q_KILL_AT: step });
      expect(run.signal, `${step} was never reached: ${run.stdout} ${run.stderr}`).toBe('SIGKILL');

      const quarantine = await openQuarantine(data);
      try {
        const report = await quarantine.recover();
        expect(report.problems).toEqual([]);
        const place = await checkOneCopy(path, folder);
        const after = quarantine.get(entry.value.id)!;
        if (place === 'original') {
          expect(after).toMatchObject({ state: op === 'allow' ? 'allowed' : 'restored', restoredTo: path });
          expect(await modeOf(path)).toBe(0o751);
          expect(quarantine.isAllowed(hash)).toBe(op === 'allow');
          expect(await storedFiles()).toEqual([]);
        } else {
          // Only an intent with nothing placed yet goes back.
          expect(['restore:intent', 'restore:copied']).toContain(step);
          expect(after.state).toBe('quarantined');
          expect(quarantine.isAllowed(hash)).toBe(false);
          expect(await quarantine.restore(after.id)).toMatchObject({ ok: true });
        }
        expect(await readFile(path, 'utf8')).toBe(CONTENT);
      } finally {
        quarantine.close();
      }
    },
  );
});

describe('killed while deleting', () => {
  it.each(['delete:intent', 'delete:removed'] as const)('at %s: recover finishes the delete the user asked for', async (step) => {
    const { path, hash } = await threatIn('same');
    const setup = await openQuarantine(data);
    const entry = await setup.quarantine({ path, sha256: hash });
    setup.close();
    if (!entry.ok) throw new Error(entry.error.message);
    const run = await runChild({ Q_OP: 'delete', Q_ENTRY: entry.value.id, Q_KILL_AT: step });
    expect(run.signal).toBe('SIGKILL');

    const quarantine = await openQuarantine(data);
    try {
      expect((await quarantine.recover()).completed).toEqual([entry.value.id]);
      expect(quarantine.get(entry.value.id)?.state).toBe('deleted');
      expect(await storedFiles()).toEqual([]);
      expect(await stat(path).catch(() => null)).toBeNull();
    } finally {
      quarantine.close();
    }
  });
});

describe('the child without a kill point', () => {
  it('completes the operation and prints its result (the hook only acts when asked)', async () => {
    const { path, hash } = await threatIn('same');
    const run = await runChild({ Q_OP: 'quarantine', Q_PATH: path, Q_SHA256: hash });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, value: { state: 'quarantined' } });
  });
});

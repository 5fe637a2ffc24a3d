// Each watched folder's threat action, end to end through the real core: the
// folder watcher (chokidar) sees an EICAR file land, the embedded service's
// built-in engine judges it, and the folder's setting decides. A folder set to
// `quarantine` has its threat moved out; a folder with the default (`notify`)
// keeps its own; a manual scan follows the global setting whatever the folder.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME } from '../../../electron/quarantine/quarantine.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { EICAR_TEST_STRING, FAST, until, writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, dataDir, open } = useCoreFixture('verdict-core-folder-threat-');

const EICAR_SHA256 = createHash('sha256').update(EICAR_TEST_STRING).digest('hex');

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function folder(name: string): Promise<string> {
  const path = join(dir.path, name);
  await mkdir(path, { recursive: true });
  return path;
}

/** Writes the threat outside the folder with `mode`, then renames it in: it lands whole, as a finished download does. */
async function land(target: string, mode: number): Promise<void> {
  const staging = await folder('staging');
  const draft = join(staging, `draft-${Math.random().toString(36).slice(2, 8)}`);
  await writeFile(draft, EICAR_TEST_STRING);
  await chmod(draft, mode);
  await rename(draft, target);
}

/** The watcher's record of a file, once it is judged and its threat response (a move, if any) is done. */
async function watchedRecord(core: CoreInternals, path: string): Promise<ScanRecord> {
  let found: ScanRecord | undefined;
  await until(async () => {
    const list = value(await core.scans.list({ statuses: ['completed'], limit: 100 }));
    found = list.items.find((record) => record.path === path && record.origin === 'watch');
    return found !== undefined;
  }, `the watcher's scan of ${path}`);
  await core.threatsSettled();
  return value(await core.scans.get(found!.id));
}

async function manualScan(core: CoreInternals, path: string): Promise<ScanRecord> {
  const submitted = value(await core.submit([path], { origin: 'drop' }));
  await core.threatsSettled();
  return value(await core.scans.get(submitted.ids[0]!));
}

describe('threat action per watched folder', () => {
  it('quarantines in a folder set to quarantine, only notifies in a default folder, and manual scans follow the global setting', async () => {
    const core = await open({ ...FAST, watch: true, watchSettleMs: 100 });
    const quarantining = await folder('quarantining');
    const notifying = await folder('notifying');
    value(await core.watch.add({ path: quarantining, threatAction: 'quarantine' }));
    value(await core.watch.add({ path: notifying }));
    expect(value(await core.settings.get())).toMatchObject({ threatAction: 'notify' });
    await until(async () => {
      const statuses = value(await core.watch.list());
      return statuses.length === 2 && statuses.every((status) => status.state === 'watching');
    }, 'both folders to be watched');

    const taken = join(quarantining, 'invoice.pdf.exe');
    const kept = join(notifying, 'setup.exe');
    await land(taken, 0o640);
    await land(kept, 0o644);

    // The quarantining folder: the file is gone from it, and the quarantine holds it with what it was.
    const takenRecord = await watchedRecord(core, taken);
    expect(takenRecord).toMatchObject({ origin: 'watch', status: 'completed', safe: false, disposition: 'quarantined', error: null });
    expect(await readdir(quarantining)).toEqual([]);
    const entry = value(await core.quarantine.forRecord(takenRecord.id));
    expect(entry).toMatchObject({
      id: takenRecord.quarantineId,
      originalPath: taken,
      fileName: 'invoice.pdf.exe',
      mode: 0o640,
      size: Buffer.byteLength(EICAR_TEST_STRING),
      sha256: EICAR_SHA256,
      recordId: takenRecord.id,
      state: 'quarantined',
    });
    const stored = join(dataDir(), QUARANTINE_DIR_NAME, QUARANTINE_FILES_DIR_NAME, entry!.id);
    expect(await readFile(stored, 'utf8')).toBe(EICAR_TEST_STRING);
    expect((await stat(stored)).mode & 0o777).toBe(0o400);

    // The default folder: notified only; the file stays, with no entry.
    const keptRecord = await watchedRecord(core, kept);
    expect(keptRecord).toMatchObject({ origin: 'watch', status: 'completed', safe: false, disposition: null, quarantineId: null });
    expect(await readFile(kept, 'utf8')).toBe(EICAR_TEST_STRING);
    expect(value(await core.quarantine.forRecord(keptRecord.id))).toBeNull();
    expect(value(await core.quarantine.list()).map((e) => e.id)).toEqual([entry!.id]);

    // A manual scan follows the global setting: `notify` leaves a threat outside the folders where it is...
    const elsewhere = await writeEicar(join(await folder('elsewhere'), 'attachment.com'));
    expect(await manualScan(core, elsewhere)).toMatchObject({ origin: 'drop', safe: false, disposition: null });
    expect(existsSync(elsewhere)).toBe(true);
    // ...and `quarantine` takes one even from the folder that only notifies.
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const manual = await manualScan(core, kept);
    expect(manual).toMatchObject({ origin: 'drop', safe: false, disposition: 'quarantined' });
    expect(existsSync(kept)).toBe(false);
    expect(value(await core.quarantine.forRecord(manual.id))).toMatchObject({ originalPath: kept, state: 'quarantined', mode: 0o644 });
    // The watcher's record of that file is untouched: it was notified, and says so.
    expect(value(await core.scans.get(keptRecord.id))).toMatchObject({ disposition: null });
  });
});

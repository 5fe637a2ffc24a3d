// Threat response through the real core: the embedded local service (built-in
// engine) judges an EICAR file written at test time, the core moves it to
// quarantine when the settings say so, and restore / allow / delete (single
// and bulk) put the file and its scan record where they belong. Also: a move a
// crash interrupted (record `quarantine_pending`) is finished at the next start.
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictOf, type ScanEvent, type ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { EICAR_TEST_STRING, writeEicar, writeFiles } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, dataDir, open } = useCoreFixture('verdict-core-quarantine-');

const sha256Of = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

async function folder(name: string): Promise<string> {
  const path = join(dir.path, name);
  await mkdir(path, { recursive: true });
  return path;
}

/** Submits as a manual scan and waits until every verdict and every quarantine move is done. */
async function scan(core: CoreInternals, paths: string[]): Promise<ScanRecord[]> {
  const submitted = await core.submit(paths, { origin: 'drop' });
  if (!submitted.ok) throw new Error(submitted.error.message);
  await core.threatsSettled();
  return Promise.all(submitted.value.ids.map(async (id) => get(core, id)));
}

async function get(core: CoreInternals, id: string): Promise<ScanRecord> {
  const record = await core.scans.get(id);
  if (!record.ok) throw new Error(record.error.message);
  return record.value;
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('quarantine after a verdict', () => {
  it('by default only notifies: the threat stays where it is, with no disposition', async () => {
    const core = await open();
    const eicar = await writeEicar(join(await folder('in'), 'eicar.com'));
    const [record] = await scan(core, [eicar]);
    expect(record).toMatchObject({ status: 'completed', safe: false, disposition: null, quarantineId: null });
    expect(verdictOf(record!)).toBe('unsafe');
    expect(await readFile(eicar, 'utf8')).toBe(EICAR_TEST_STRING);
    expect(value(await core.quarantine.list())).toEqual([]);
  });

  it('moves a threat to quarantine when the setting says so; the record shows the entry; a clean file is untouched', async () => {
    const core = await open();
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const events: ScanEvent[] = [];
    core.onEvent((event) => events.push(event));
    const files = await folder('in');
    const eicar = await writeEicar(join(files, 'eicar.com'));
    await chmod(eicar, 0o640);
    const [clean] = await writeFiles(files, 1);
    const [threat, safe] = await scan(core, [eicar, clean!]);

    expect(safe).toMatchObject({ safe: true, disposition: null });
    expect(existsSync(clean!)).toBe(true);
    expect(threat).toMatchObject({ safe: false, disposition: 'quarantined', error: null });
    expect(verdictOf(threat!)).toBe('unsafe');
    expect(existsSync(eicar)).toBe(false);
    const entry = value(await core.quarantine.forRecord(threat!.id));
    expect(entry).toMatchObject({
      id: threat!.quarantineId,
      originalPath: eicar,
      fileName: 'eicar.com',
      size: EICAR_TEST_STRING.length,
      mode: 0o640,
      sha256: sha256Of(EICAR_TEST_STRING),
      recordId: threat!.id,
      state: 'quarantined',
    });
    expect(value(await core.quarantine.list()).map((e) => e.id)).toEqual([entry!.id]);
    // The verdict and the decision are one write; the move's outcome is the next record event.
    const dispositions = events.flatMap((event) => (event.type === 'record' && event.record.id === threat!.id ? [event.record.disposition] : []));
    expect(dispositions.slice(-2)).toEqual(['quarantine_pending', 'quarantined']);
    expect(dispositions.filter((d) => d !== null && d !== undefined)[0]).toBe('quarantine_pending');
  });

  it('keeps two threats with the same name, and quarantines a file handed in twice only once per scan', async () => {
    const core = await open();
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const a = await writeEicar(join(await folder('a'), 'setup.exe'));
    const b = await writeEicar(join(await folder('b'), 'setup.exe'));
    const records = await scan(core, [a, b]);
    expect(records.map((r) => r.disposition)).toEqual(['quarantined', 'quarantined']);
    const entries = value(await core.quarantine.list());
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.originalPath))).toEqual(new Set([a, b]));
  });

  it('marks a move that could not happen as quarantine_failed with the reason, and "move to quarantine" tries again', async () => {
    const core = await open();
    const files = await folder('in');
    const eicar = await writeEicar(join(files, 'eicar.com'));
    const [record] = await scan(core, [eicar]);
    // The file changed after the verdict: it is not the content that was judged, so it is not moved.
    await writeFile(eicar, `${EICAR_TEST_STRING} changed`);
    const [outcome] = value(await core.quarantine.add([record!.id]));
    // The code, the English sentence, and the file it is about for the UI's own wording (on the outcome and the record).
    expect(outcome).toMatchObject({ id: record!.id, ok: false, error: { code: 'hash_mismatch', message: expect.stringContaining('changed since it was scanned'), params: { path: eicar } } });
    expect(await get(core, record!.id)).toMatchObject({ disposition: 'quarantine_failed', error: { code: 'hash_mismatch', params: { path: eicar } }, status: 'completed', safe: false });
    expect(existsSync(eicar)).toBe(true);

    await writeFile(eicar, EICAR_TEST_STRING);
    const [again] = value(await core.quarantine.add([record!.id]));
    expect(again).toMatchObject({ ok: true, value: { state: 'quarantined' } });
    expect(await get(core, record!.id)).toMatchObject({ disposition: 'quarantined', error: null });
    // Asked once more: refused, it is there already.
    expect(value(await core.quarantine.add([record!.id, 'no-such-scan']))).toMatchObject([
      { ok: false, error: { code: 'invalid_state', params: { cause: 'in_quarantine' } } },
      { ok: false, error: { code: 'not_found' } },
    ]);
  });
});

describe('restore, allow, delete', () => {
  async function quarantined(core: CoreInternals, names: string[]) {
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const files = await folder(`in-${Math.random().toString(36).slice(2, 8)}`);
    const paths = await Promise.all(names.map((name) => writeEicar(join(files, name))));
    const records = await scan(core, paths);
    for (const record of records) expect(record.disposition).toBe('quarantined');
    return { paths, records, entries: await Promise.all(records.map(async (r) => value(await core.quarantine.forRecord(r.id))!)) };
  }

  it('restores a file whose sha256 matches to its original path, with its mode; the record says restored', async () => {
    const core = await open();
    const { paths, records, entries } = await quarantined(core, ['eicar.com']);
    const restored = value(await core.quarantine.restore(entries[0]!.id));
    expect(restored).toMatchObject({ state: 'restored', restoredTo: paths[0] });
    expect(await readFile(paths[0]!, 'utf8')).toBe(EICAR_TEST_STRING);
    expect((await stat(paths[0]!)).mode & 0o777).toBe(entries[0]!.mode & 0o777);
    const record = await get(core, records[0]!.id);
    expect(record).toMatchObject({ disposition: 'restored', quarantineId: entries[0]!.id });
    // Restored is not allowed: it still reads as a threat.
    expect(verdictOf(record)).toBe('unsafe');
    expect(value(await core.quarantine.list())).toEqual([]);
  });

  it('refuses to restore a quarantined file whose content no longer matches its sha256', async () => {
    const core = await open();
    const { paths, records, entries } = await quarantined(core, ['eicar.com']);
    const stored = join(dataDir(), 'quarantine', 'files', entries[0]!.id);
    await chmod(stored, 0o600);
    await writeFile(stored, 'tampered with while in quarantine');
    const result = await core.quarantine.restore(entries[0]!.id);
    expect(result).toMatchObject({ ok: false, error: { code: 'hash_mismatch', params: { cause: 'quarantined_copy_changed' } } });
    expect(existsSync(paths[0]!)).toBe(false);
    expect(value(await core.quarantine.forRecord(records[0]!.id))).toMatchObject({ state: 'quarantined' });
    expect(await get(core, records[0]!.id)).toMatchObject({ disposition: 'quarantined' });
  });

  it('never restores onto an existing file: restore_conflict, then another location chosen by the user', async () => {
    const core = await open();
    const { paths, records, entries } = await quarantined(core, ['eicar.com']);
    await writeFile(paths[0]!, 'a new file the user made since');
    expect(await core.quarantine.restore(entries[0]!.id)).toMatchObject({ ok: false, error: { code: 'restore_conflict', params: { path: paths[0] } } });
    expect(await readFile(paths[0]!, 'utf8')).toBe('a new file the user made since');
    expect(await get(core, records[0]!.id)).toMatchObject({ disposition: 'quarantined' });

    const elsewhere = join(await folder('elsewhere'), 'eicar (restored).com');
    const restored = value(await core.quarantine.restore(entries[0]!.id, { to: elsewhere }));
    expect(restored).toMatchObject({ state: 'restored', restoredTo: elsewhere });
    expect(await readFile(elsewhere, 'utf8')).toBe(EICAR_TEST_STRING);
    expect(await readFile(paths[0]!, 'utf8')).toBe('a new file the user made since');
    expect(await get(core, records[0]!.id)).toMatchObject({ disposition: 'restored' });
  });

  it('allows: restores and remembers the content, so an identical file reads "allowed" (never clean) and stays put', async () => {
    const core = await open();
    const { paths, records, entries } = await quarantined(core, ['eicar.com']);
    value(await core.quarantine.allow(entries[0]!.id));
    expect(await readFile(paths[0]!, 'utf8')).toBe(EICAR_TEST_STRING);
    const allowedRecord = await get(core, records[0]!.id);
    expect(allowedRecord).toMatchObject({ disposition: 'allowed', safe: false });
    expect(verdictOf(allowedRecord)).toBe('allowed');
    expect(value(await core.quarantine.allowed())).toMatchObject([{ sha256: sha256Of(EICAR_TEST_STRING), fileName: 'eicar.com', entryId: entries[0]!.id }]);

    // The same content again, elsewhere: still judged unsafe by the engine, but allowed by the user.
    const copy = await writeEicar(join(await folder('copy'), 'same-content.bin'));
    const [again] = await scan(core, [copy]);
    expect(again).toMatchObject({ safe: false, disposition: 'allowed', quarantineId: null });
    expect(verdictOf(again!)).toBe('allowed');
    expect(existsSync(copy)).toBe(true);
    expect(value(await core.scans.list({ verdicts: ['allowed'] })).total).toBe(2);
    expect(value(await core.scans.list({ verdicts: ['unsafe'] })).total).toBe(0);
    expect(value(await core.scans.list({ verdicts: ['safe'] })).total).toBe(0);

    // Stop allowing: those scans read as threats again; the one that came from quarantine stays "restored".
    value(await core.quarantine.revokeAllowed(sha256Of(EICAR_TEST_STRING)));
    expect(await get(core, records[0]!.id)).toMatchObject({ disposition: 'restored' });
    expect(await get(core, again!.id)).toMatchObject({ disposition: null });
    expect(value(await core.quarantine.allowed())).toEqual([]);
    expect(await core.quarantine.revokeAllowed(sha256Of(EICAR_TEST_STRING))).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('allows a threat that was only notified about (no quarantine): it reads "allowed" from then on', async () => {
    const core = await open();
    const eicar = await writeEicar(join(await folder('in'), 'kept.com'));
    const [record] = await scan(core, [eicar]);
    expect(value(await core.quarantine.allowRecord(record!.id))).toMatchObject({ sha256: sha256Of(EICAR_TEST_STRING), recordId: record!.id, entryId: null });
    expect(verdictOf(await get(core, record!.id))).toBe('allowed');
    expect(existsSync(eicar)).toBe(true);
    const [clean] = await writeFiles(await folder('clean'), 1);
    const [cleanRecord] = await scan(core, [clean!]);
    expect(await core.quarantine.allowRecord(cleanRecord!.id)).toMatchObject({ ok: false, error: { code: 'invalid_state' } });
  });

  it('acts in bulk: restore (one conflicting, then into a folder), allow, delete permanently; one outcome per id', async () => {
    const core = await open();
    const { paths, records, entries } = await quarantined(core, ['one.com', 'two.com', 'three.com', 'four.com', 'five.com']);
    const ids = entries.map((e) => e.id);
    await writeFile(paths[1]!, 'in the way');

    const restored = value(await core.quarantine.restoreMany([ids[0]!, ids[1]!]));
    expect(restored).toMatchObject([
      { id: ids[0], ok: true, value: { state: 'restored' } },
      { id: ids[1], ok: false, error: { code: 'restore_conflict', params: { path: paths[1] } } },
    ]);
    const folderTarget = await folder('restored-here');
    const intoFolder = value(await core.quarantine.restoreMany([ids[1]!], { toFolder: folderTarget }));
    expect(intoFolder).toMatchObject([{ id: ids[1], ok: true, value: { restoredTo: join(folderTarget, 'two.com') } }]);
    expect(await readFile(join(folderTarget, 'two.com'), 'utf8')).toBe(EICAR_TEST_STRING);

    const allowed = value(await core.quarantine.allowMany([ids[2]!]));
    expect(allowed).toMatchObject([{ id: ids[2], ok: true, value: { state: 'allowed' } }]);
    const deleted = value(await core.quarantine.deleteMany([ids[3]!, ids[4]!, 'no-such-entry']));
    expect(deleted).toMatchObject([{ ok: true, value: { state: 'deleted' } }, { ok: true, value: { state: 'deleted' } }, { ok: false, error: { code: 'not_found' } }]);
    expect(existsSync(join(dataDir(), 'quarantine', 'files', ids[3]!))).toBe(false);
    expect(existsSync(paths[3]!)).toBe(false);

    const dispositions = await Promise.all(records.map(async (r) => (await get(core, r.id)).disposition));
    expect(dispositions).toEqual(['restored', 'restored', 'allowed', 'deleted', 'deleted']);
    expect(value(await core.quarantine.list())).toEqual([]);
    expect(value(await core.quarantine.list({ include: 'all' }))).toHaveLength(5);
  });

  it('restores threats with the same name into one chosen folder: the second becomes "name (2).ext"; nothing is replaced', async () => {
    const core = await open();
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const paths = [await writeEicar(join(await folder('x'), 'setup.exe')), await writeEicar(join(await folder('y'), 'setup.exe'))];
    const records = await scan(core, paths);
    const ids = await Promise.all(records.map(async (r) => value(await core.quarantine.forRecord(r.id))!.id));
    const into = await folder('one-folder');
    await writeFile(join(into, 'setup.exe'), 'already here');

    const outcomes = value(await core.quarantine.allowMany(ids, { toFolder: into }));
    expect(outcomes).toMatchObject([
      { id: ids[0], ok: true, value: { state: 'allowed', restoredTo: join(into, 'setup (2).exe') } },
      { id: ids[1], ok: true, value: { state: 'allowed', restoredTo: join(into, 'setup (3).exe') } },
    ]);
    expect(await readFile(join(into, 'setup.exe'), 'utf8')).toBe('already here');
    for (const name of ['setup (2).exe', 'setup (3).exe']) expect(await readFile(join(into, name), 'utf8')).toBe(EICAR_TEST_STRING);
    for (const record of records) expect(await get(core, record.id)).toMatchObject({ disposition: 'allowed' });
    expect(value(await core.quarantine.list())).toEqual([]);
  });

  it('moves notified threats to quarantine in bulk', async () => {
    const core = await open();
    const files = await folder('in');
    const paths = [await writeEicar(join(files, 'a.com')), await writeEicar(join(files, 'b.com'))];
    const records = await scan(core, paths);
    const outcomes = value(await core.quarantine.add(records.map((r) => r.id)));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    for (const path of paths) expect(existsSync(path)).toBe(false);
    for (const record of records) expect((await get(core, record.id)).disposition).toBe('quarantined');
  });
});

describe('crash between the verdict and the move', () => {
  it('finishes a quarantine left pending at the next start (the state a kill right after the verdict leaves)', async () => {
    // First run: a verdict, in notify mode, to get a real record of the threat.
    const files = await folder('in');
    const eicar = await writeEicar(join(files, 'eicar.com'));
    const first = await open();
    const [record] = await scan(first, [eicar]);
    await first.close();
    // What the pipeline writes with a quarantine verdict, before the move: the disposition, in one write.
    const history = openHistory(dataDir());
    history.update(record!.id, { disposition: 'quarantine_pending' });
    history.close();

    const second = await open();
    await second.threatsSettled();
    expect(await get(second, record!.id)).toMatchObject({ disposition: 'quarantined' });
    expect(existsSync(eicar)).toBe(false);
    const entries = value(await second.quarantine.list());
    expect(entries).toMatchObject([{ recordId: record!.id, originalPath: eicar, state: 'quarantined' }]);
    await second.close();

    // And again: nothing pending is left, and nothing is moved twice.
    const third = await open();
    await third.threatsSettled();
    expect(value(await third.quarantine.list({ include: 'all' }))).toHaveLength(1);
  });

  it('a pending quarantine whose file is gone by the next start is recorded as failed, with the reason', async () => {
    const files = await folder('in');
    const eicar = await writeEicar(join(files, 'eicar.com'));
    const first = await open();
    const [record] = await scan(first, [eicar]);
    await first.close();
    const history = openHistory(dataDir());
    history.update(record!.id, { disposition: 'quarantine_pending' });
    history.close();
    await writeFile(eicar, 'replaced by the user');

    const second = await open();
    await second.threatsSettled();
    expect(await get(second, record!.id)).toMatchObject({ disposition: 'quarantine_failed', error: { code: 'hash_mismatch' } });
    expect(await readFile(eicar, 'utf8')).toBe('replaced by the user');
  });
});

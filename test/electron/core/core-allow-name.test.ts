// Allowing a detection name (issue 28 §1) through the real core: the embedded service's built-in
// engine finds EICAR as `EICAR-Test-File`; once that name is allowed the next scan reads allowed (by
// detection name), is not quarantined and is not told as a threat, and the history's threats it
// covers change with it. A record with another finding stays a threat; taking the name off makes
// the files threats again. The confirmation's count is read from the real SQLite history.
import { mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictOf, type ScanRecord } from '../../../shared/scans/record.ts';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import { openHistory } from '../../../electron/history/history.ts';
import { EICAR_FINDING } from '../../../electron/engine/builtin-engine.ts';
import { planNotifications } from '../../../electron/shell/notification-rules.ts';
import { textsFor } from '../../../electron/shell/texts.ts';
import { scanRecord } from '../shell/test-core.ts';
import { writeEicar } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, dataDir, open } = useCoreFixture('verdict-core-allow-name-');

async function scan(core: CoreInternals, paths: string[], force = false): Promise<ScanRecord[]> {
  const submitted = await core.submit(paths, { origin: 'drop', force });
  if (!submitted.ok) throw new Error(submitted.error.message);
  await core.threatsSettled();
  return Promise.all(submitted.value.ids.map(async (id) => value(await core.scans.get(id))));
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function eicarIn(name: string): Promise<string> {
  const folder = join(dir.path, 'files');
  await mkdir(folder, { recursive: true });
  return writeEicar(join(folder, name));
}

const threatNotices = (records: ScanRecord[]) => planNotifications(records, { notifyClean: false, maxIndividual: 3 }, textsFor('en')).filter((notice) => notice.kind === 'threat');

describe('allow by detection name', () => {
  it('the next scan of EICAR reads allowed by name: findings kept, not quarantined, no threat notice; removal makes it a threat again', async () => {
    const core = await open();
    value(await core.settings.update({ threatAction: 'quarantine' }));
    expect(value(await core.quarantine.allowName(EICAR_FINDING))).toEqual({ names: [EICAR_FINDING], changed: 0 });
    expect(value(await core.quarantine.allowedNames())).toEqual([EICAR_FINDING]);
    expect(value(await core.settings.get()).allowedDetectionNames).toEqual([EICAR_FINDING]);

    const eicar = await eicarIn('eicar.com');
    const [allowed] = await scan(core, [eicar]);
    expect(allowed).toMatchObject({ status: 'completed', safe: false, disposition: 'allowed', allowedBy: 'name', quarantineId: null, findings: [{ name: EICAR_FINDING }] });
    expect(verdictOf(allowed!)).toBe('allowed');
    expect(existsSync(eicar)).toBe(true);
    expect(value(await core.quarantine.list())).toEqual([]);
    expect(threatNotices([allowed!])).toEqual([]);
    // The same content again: the reused verdict is allowed by name too.
    const [reused] = await scan(core, [eicar]);
    expect(reused).toMatchObject({ disposition: 'allowed', allowedBy: 'name' });

    const removed = value(await core.quarantine.revokeAllowedName(EICAR_FINDING));
    expect(removed).toEqual({ names: [], changed: 2 });
    expect(verdictOf(value(await core.scans.get(allowed!.id)))).toBe('unsafe');
    expect(await core.quarantine.revokeAllowedName(EICAR_FINDING)).toMatchObject({ ok: false, error: { code: 'not_found' } });

    // Not forced: the earlier verdict is reused, and judged again under the list as it is now.
    const [threat] = await scan(core, [eicar]);
    expect(threat).toMatchObject({ safe: false, disposition: 'quarantined' });
    expect(threat!.allowedBy ?? null).toBeNull();
    expect(verdictOf(threat!)).toBe('unsafe');
    expect(existsSync(eicar)).toBe(false);
    expect(threatNotices([threat!])).toHaveLength(1);
  });

  it("the confirmation's count is the history's threats the name covers; a record with another finding stays a threat; quarantined files stay there", async () => {
    // A threat with two findings, as a service with more than one signature match reports it.
    const history = openHistory(dataDir());
    const mixed = history.insert(
      scanRecord({ id: 'mixed', path: '/elsewhere/mixed.bin', fileName: 'mixed.bin', status: 'completed', safe: false, detailed: 'infected', findings: [{ name: EICAR_FINDING }, { name: 'Win.Tool.Foo-123' }] }),
    );
    history.close();

    const core = await open();
    const [left] = await scan(core, [await eicarIn('left.com')]);
    const [kept] = await scan(core, [await eicarIn('kept.com')], true);
    value(await core.settings.update({ threatAction: 'quarantine' }));
    const [moved] = await scan(core, [await eicarIn('moved.com')], true);
    expect([left, kept, moved].map((record) => record!.disposition)).toEqual([null, null, 'quarantined']);

    expect(value(await core.quarantine.nameAllowPreview(EICAR_FINDING))).toEqual({ files: 2, inQuarantine: 1, atLeast: false });
    // Both names of the mixed record: it would be covered too.
    expect(value(await core.quarantine.nameAllowPreview('Win.Tool.Foo-123'))).toEqual({ files: 0, inQuarantine: 0, atLeast: false });
    expect(value(await core.quarantine.nameAllowPreview('Not.In.History'))).toEqual({ files: 0, inQuarantine: 0, atLeast: false });

    expect(value(await core.quarantine.allowName(EICAR_FINDING))).toEqual({ names: [EICAR_FINDING], changed: 2 });
    for (const record of [left, kept]) expect(value(await core.scans.get(record!.id))).toMatchObject({ disposition: 'allowed', allowedBy: 'name' });
    expect(value(await core.scans.get(moved!.id))).toMatchObject({ disposition: 'quarantined' });
    const stillThreat = value(await core.scans.get(mixed.id));
    expect(verdictOf(stillThreat)).toBe('unsafe');
    expect(stillThreat.findings).toHaveLength(2);

    // The second name covers the mixed record now.
    expect(value(await core.quarantine.nameAllowPreview('Win.Tool.Foo-123'))).toEqual({ files: 1, inQuarantine: 0, atLeast: false });
    expect(value(await core.quarantine.allowName('Win.Tool.Foo-123')).changed).toBe(1);
    expect(verdictOf(value(await core.scans.get(mixed.id)))).toBe('allowed');
    // Either name taken off: the mixed record is a threat again.
    expect(value(await core.quarantine.revokeAllowedName('Win.Tool.Foo-123')).changed).toBe(1);
    expect(verdictOf(value(await core.scans.get(mixed.id)))).toBe('unsafe');
    expect(verdictOf(value(await core.scans.get(left!.id)))).toBe('allowed');

    // The export says why: allowed by name.
    const csv = join(dir.path, 'allowed.csv');
    expect(value(await core.history.export(csv, { format: 'csv', query: { verdicts: ['allowed'] } }))).toMatchObject({ rows: 2 });
    const [header, ...rows] = (await readFile(csv, 'utf8')).trim().split(/\r?\n/).map((line) => line.split(','));
    expect(rows.map((row) => row[header!.indexOf('allowed_by')])).toEqual(['name', 'name']);
  });

  it('taking allowed content off leaves a record its detection name allows', async () => {
    const core = await open();
    const [record] = await scan(core, [await eicarIn('eicar.com')]);
    value(await core.quarantine.allowRecord(record!.id));
    expect(value(await core.scans.get(record!.id))).toMatchObject({ disposition: 'allowed', allowedBy: 'content' });
    value(await core.quarantine.allowName(EICAR_FINDING));
    const [byName] = await scan(core, [await eicarIn('other.com')], true);
    // Content first: the same bytes are allowed by content.
    expect(byName).toMatchObject({ disposition: 'allowed', allowedBy: 'content' });
    value(await core.quarantine.revokeAllowed(record!.sha256!));
    expect(verdictOf(value(await core.scans.get(record!.id)))).toBe('unsafe');
    const [again] = await scan(core, [await eicarIn('third.com')], true);
    expect(again).toMatchObject({ disposition: 'allowed', allowedBy: 'name' });
  });
});

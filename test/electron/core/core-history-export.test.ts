// core.history.export(path, {format, query}) (issue 8): real scans in a real
// history.sqlite, written to a real file. The filter decides the rows, the list's
// paging does not; a bad request or an unwritable place is a Result, never a throw.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { createCore, type CoreInternals } from '../../../electron/core/create-core.ts';
import { CSV_HEADER } from '../../../electron/history/export-format.ts';
import { FAST, tempDir, writeEicar, writeFiles } from '../scans/harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: CoreInternals;
let out: string;
let cleanPaths: string[];
let eicarPath: string;

beforeAll(async () => {
  dir = await tempDir('verdict-core-export-');
  const files = join(dir.path, 'files');
  out = join(dir.path, 'out');
  await mkdir(files);
  await mkdir(out);
  core = await createCore({ dataDir: join(dir.path, 'data'), keychainService: `verdict-test-${process.pid}`, localService: { engine: 'builtin' } }, FAST);
  cleanPaths = await writeFiles(files, 3, 'report');
  eicarPath = await writeEicar(join(files, 'eicar, "quoted".com'));
  const submitted = await core.submit([...cleanPaths, eicarPath], { origin: 'drop' });
  expect(submitted.ok && submitted.value.queued).toBe(4);
  await core.idle();
});
afterAll(async () => {
  await core?.close();
  await dir?.remove();
});

/** Splits RFC 4180 CSV (quoted fields may hold commas and quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split('\r\n').filter(Boolean)) {
    const fields: string[] = [];
    for (const match of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) fields.push(match[1] !== undefined ? match[1].replaceAll('""', '"') : (match[2] ?? ''));
    rows.push(fields);
  }
  return rows;
}

describe('history.export', () => {
  it('writes the rows matching the filter as CSV, and only those', async () => {
    const target = join(out, 'threats.csv');
    const result = await core.history.export(target, { format: 'csv', query: { verdicts: ['unsafe'] } });
    expect(result).toEqual({ ok: true, value: { rows: 1, path: target } });
    const [header, ...rows] = parseCsv(await readFile(target, 'utf8'));
    expect(header).toEqual(CSV_HEADER);
    expect(rows).toHaveLength(1);
    const column = (name: string) => rows[0]![CSV_HEADER.indexOf(name)];
    expect(column('path')).toBe(eicarPath);
    expect(column('verdict')).toBe('unsafe');
    expect(column('findings')).toMatch(/EICAR/);
    // Who made the verdict: the built-in engine (these cores use it), which names no version.
    expect([column('engine'), column('engine_version'), column('signatures_version'), column('signatures_date')]).toEqual(['builtin', '', '', '']);
  });

  it('writes every matching row as JSON, ignoring the list’s offset and limit', async () => {
    const target = join(out, 'all.json');
    const result = await core.history.export(target, { format: 'json', query: { offset: 2, limit: 1, order: 'oldest' } });
    expect(result).toEqual({ ok: true, value: { rows: 4, path: target } });
    const records = JSON.parse(await readFile(target, 'utf8')) as ScanRecord[];
    expect(records.map((record) => record.path).sort()).toEqual([...cleanPaths, eicarPath].sort());
    for (const record of records) expect(record.engine).toEqual({ name: 'builtin', version: null, signatures: null });
    // Same records as the core's own list, oldest first.
    const listed = await core.scans.list({ order: 'oldest', limit: 100 });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(records).toEqual(listed.value.items);
  });

  it('applies a name search, and writes an empty export (header only) when nothing matches', async () => {
    const reports = join(out, 'reports.json');
    expect(await core.history.export(reports, { format: 'json', query: { search: 'report' } })).toMatchObject({ ok: true, value: { rows: 3 } });
    expect((JSON.parse(await readFile(reports, 'utf8')) as ScanRecord[]).every((record) => record.fileName.startsWith('report'))).toBe(true);
    const none = join(out, 'none.csv');
    expect(await core.history.export(none, { format: 'csv', query: { search: 'no such name' } })).toEqual({ ok: true, value: { rows: 0, path: none } });
    expect(parseCsv(await readFile(none, 'utf8'))).toEqual([CSV_HEADER]);
  });

  it('answers a bad request or an unwritable place with a Result, and leaves nothing behind', async () => {
    const before = await readdir(out);
    expect(await core.history.export('relative.csv', { format: 'csv' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await core.history.export(join(out, 'x.xml'), { format: 'xml' as 'csv' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await core.history.export(join(out, 'x.csv'), { format: 'csv', query: { limit: 1_000_000 } })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const missingFolder = join(out, 'no-such-folder', 'x.csv');
    const failed = await core.history.export(missingFolder, { format: 'csv' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'export_failed', message: expect.stringContaining(missingFolder) } });
    expect(await readdir(out)).toEqual(before);
  });
});

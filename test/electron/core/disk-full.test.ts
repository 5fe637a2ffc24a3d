// Recognising a full data disk from the errors the stores really throw: SQLite's
// SQLITE_FULL (here from a page limit, which SQLite reports like a full disk),
// ENOSPC from a real full tmpfs (root only), and what is not one (the inotify
// watch limit, a full disk elsewhere). Plus the words: both languages name the folder.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuard } from '../../../electron/core/core-context.ts';
import { DataDiskFullError, isDiskFull } from '../../../electron/core/disk-full.ts';
import { createLogger } from '../../../electron/logging/logger.ts';
import { diskFullTexts, type DiskFullTexts } from '../../../electron/core/disk-full-text.ts';

const ROOT = process.getuid?.() === 0;
let dir: string | null = null;
let mounted = false;
afterEach(async () => {
  if (mounted) execFileSync('umount', [dir!]);
  mounted = false;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

/** What SQLite throws when it cannot grow its file. */
function sqliteFullError(): unknown {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec('PRAGMA max_page_count = 2; CREATE TABLE t (x BLOB)');
    db.prepare('INSERT INTO t VALUES (?)').run(new Uint8Array(64 * 1024));
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('SQLite did not fill up');
}

describe('isDiskFull', () => {
  it("knows SQLite's SQLITE_FULL, also wrapped as another error's cause", () => {
    const error = sqliteFullError();
    expect(error).toMatchObject({ errcode: 13, message: 'database or disk is full' });
    expect(isDiskFull(error)).toBe(true);
    expect(isDiskFull(new Error('Saving failed', { cause: error }))).toBe(true);
    expect(isDiskFull(new DataDiskFullError('/data', error))).toBe(true);
  });

  it.skipIf(!ROOT)('knows ENOSPC from a full disk, inside the data folder (root: a real tmpfs)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'verdict-disk-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    mounted = true;
    const error = await writeFile(join(dir, 'big'), Buffer.alloc(256 * 1024)).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'ENOSPC' });
    expect(isDiskFull(error)).toBe(true);
    expect(isDiskFull(error, dir)).toBe(true);
  });

  it('does not take the inotify watch limit, a full disk elsewhere or other errors for a full data disk', () => {
    const watchLimit = Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch \'/home\''), { code: 'ENOSPC', syscall: 'watch' });
    expect(isDiskFull(watchLimit)).toBe(false);
    // A restore copies out of the data folder onto the user's disk, which is the full one.
    const restore = Object.assign(new Error("ENOSPC: no space left on device, copyfile '/data/q/1' -> '/media/usb/a.exe'"), { code: 'ENOSPC', path: '/data/q/1', dest: '/media/usb/a.exe' });
    expect(isDiskFull(restore, '/data')).toBe(false);
    expect(isDiskFull(restore, '/media/usb')).toBe(true);
    expect(isDiskFull(Object.assign(new Error('no space'), { code: 'ENOSPC', path: '/media/usb/a.exe' }), '/data')).toBe(false);
    expect(isDiskFull(Object.assign(new Error('no space'), { code: 'ENOSPC', path: '/data/settings.json.tmp' }), '/data')).toBe(true);
    expect(isDiskFull(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBe(false);
    expect(isDiskFull(new Error('database is locked'))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });

  it('knows a message that crossed a thread without its code', () => {
    expect(isDiskFull(new Error('database or disk is full'))).toBe(true);
  });
});

describe("the core's guard", () => {
  it('answers data_disk_full, naming the data folder, where a call met a full disk; other errors stay internal_error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'verdict-disk-full-'));
    const guard = createGuard(createLogger({ file: join(dir, 'core.log') }), '/data');
    const full = await guard('Saving settings', () => {
      throw new Error('could not save', { cause: sqliteFullError() });
    });
    expect(full).toEqual({ ok: false, error: { code: 'data_disk_full', message: `Saving settings failed: ${diskFullTexts('en').problem('/data')}`, params: { dataDir: '/data' } } });
    const other = await guard('Saving settings', () => {
      throw new Error('boom');
    });
    expect(other).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });
});

describe('the words for a full data disk', () => {
  const dataDir = '/home/ana/.local/share/verdict';
  const sentences = (texts: DiskFullTexts) => [texts.problem(dataDir), texts.cli(dataDir), texts.noticeBody(dataDir), texts.restartBody(dataDir)];

  it.each(['en', 'de'] as const)('name the data folder and what to do (%s)', (language) => {
    const texts = diskFullTexts(language);
    for (const sentence of sentences(texts)) expect(sentence).toContain(dataDir);
    expect(texts.cli(dataDir)).toContain('--data-dir');
    expect(new Set(Object.keys(texts))).toEqual(new Set(Object.keys(diskFullTexts('en'))));
  });

  it('German is not English', () => {
    const en = sentences(diskFullTexts('en'));
    sentences(diskFullTexts('de')).forEach((sentence, i) => expect(sentence).not.toBe(en[i]));
    expect(diskFullTexts('de').cli(dataDir)).toMatch(/^Angehalten: Der Datenträger/);
  });

  it("DataDiskFullError's message is the English statement", () => {
    expect(new DataDiskFullError(dataDir).message).toBe(diskFullTexts('en').problem(dataDir));
  });
});

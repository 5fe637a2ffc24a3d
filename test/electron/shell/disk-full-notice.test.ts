// The app's words for a full data disk: a notice while it runs (from the errors
// nothing caught, at most one per quiet period, in the user's language), and the
// dialog when the core could not start because of it.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
import { DataDiskFullError } from '../../../electron/core/disk-full.ts';
import { diskFullTexts } from '../../../electron/core/disk-full-text.ts';
import { showStartupError } from '../../../electron/shell/dialogs.ts';
import { createDiskFullNotice } from '../../../electron/shell/disk-full-notice.ts';
import type { ShellLanguage } from '../../../electron/shell/texts.ts';
import { dialog, Notification } from './fake-electron.ts';
import { useFreshShell, type LogCapture } from './log-capture.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
useFreshShell((started) => (capture = started));

const DATA_DIR = '/home/ana/.config/Verdict';

/** What a history write throws when the disk is full: SQLite's SQLITE_FULL, for real. */
function sqliteFull(): unknown {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec('PRAGMA max_page_count = 2; CREATE TABLE t (x BLOB)');
    db.prepare('INSERT INTO t VALUES (?)').run(new Uint8Array(64 * 1024));
    throw new Error('SQLite did not fill up');
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
}

function setup(language: ShellLanguage) {
  let clock = 0;
  const onOpen = vi.fn();
  const notice = createDiskFullNotice({ dataDir: DATA_DIR, language: async () => language, onOpen, log: capture.log, now: () => clock });
  return { notice, onOpen, advance: (ms: number) => (clock += ms) };
}

describe('the full-disk notice', () => {
  it.each(['en', 'de'] as const)('says which folder is full and what to do, once per quiet period; a click opens Verdict (%s)', async (language) => {
    const { notice, onOpen, advance } = setup(language);
    expect(notice.offer(sqliteFull())).toBe(true);
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    const texts = diskFullTexts(language);
    expect(Notification.shown[0]!.options).toMatchObject({ title: texts.noticeTitle, body: texts.noticeBody(DATA_DIR) });
    Notification.shown[0]!.emit('click');
    expect(onOpen).toHaveBeenCalledTimes(1);

    // Every file in flight fails the same way: no flood.
    expect(notice.offer(sqliteFull())).toBe(true);
    advance(9 * 60_000);
    expect(notice.offer(sqliteFull())).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Notification.shown).toHaveLength(1);
    advance(2 * 60_000);
    notice.offer(sqliteFull());
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(2));
  });

  it('leaves other errors to the log', async () => {
    const { notice } = setup('en');
    expect(notice.offer(new Error('database is locked'))).toBe(false);
    expect(notice.offer(Object.assign(new Error('watch limit'), { code: 'ENOSPC', syscall: 'watch' }))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Notification.shown).toHaveLength(0);
  });
});

describe('the start-up dialog', () => {
  it('names the full data folder and what to do', () => {
    showStartupError(new DataDiskFullError(DATA_DIR, sqliteFull()));
    const [title, body] = dialog.showErrorBox.mock.calls[0]!;
    // The OS language decides (the settings may be unreadable); either way the folder is named.
    expect([diskFullTexts('en').startTitle, diskFullTexts('de').startTitle]).toContain(title);
    expect(body).toContain(DATA_DIR);
  });

  it('keeps its general words for anything else', () => {
    showStartupError(Object.assign(new Error('boom'), { code: 'data_dir_in_use' }));
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Verdict could not start', expect.stringContaining('(data_dir_in_use)'));
  });
});

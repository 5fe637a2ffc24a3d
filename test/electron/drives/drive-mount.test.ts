// Removable drives as a user meets them (issue 29 §2), as root with real filesystems: an ext4
// image with a label, loop-mounted under a test mount root, is noticed by the real core, offered
// in a notice (the stand-in Electron's Notification) with Scan, Not now and Always for this
// drive; *Scan* starts a `drive` job named after the label, which finds the EICAR file through a
// real clamd, and the job's end is told by its label. A second drive, scanned by itself
// (`auto`), is unmounted (`umount -l`) mid-scan: the job ends cancelled with `drive_removed`,
// and every file on it is accounted for: scanned from its real bytes, "could not scan" with the
// system's reason, or not reached (no row); none reads clean unscanned. Where loop devices are
// missing (a container without them), the drives are tmpfs mounts: no label or UUID, named after
// their mount point (the test says so on stdout).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { setupDriveNotices } from '../../../electron/shell/drive-notice.ts';
import { setupNotifications } from '../../../electron/shell/notifications.ts';
import { verdictOf, type ScanRecord } from '../../../shared/scans/record.ts';
import { findClamdBinary, startClamd, type RunningClamd } from '../../support/clamd.ts';
import { useCoreFixture } from '../core/core-fixture.ts';
import { FAST, until } from '../scans/harness.ts';
import { Notification, resetFakeElectron } from '../shell/fake-electron.ts';
import { captureLog } from '../shell/log-capture.ts';

vi.mock('electron', () => import('../shell/fake-electron.ts'));

const tool = (name: string) => ['/usr/sbin', '/sbin', '/usr/bin'].some((dir) => existsSync(join(dir, name)));
const canMount = process.getuid?.() === 0;

const fixture = useCoreFixture('verdict-drives-');
let clamd: RunningClamd | null = null;
let base = '';
const mounted: string[] = [];
/** How this machine makes a drive: a labelled ext4 image on a loop device, else tmpfs. */
let kind: 'loop' | 'tmpfs' | null = null;

/** Mounts `source` on `point` and unmounts it again: whether this machine can. */
function mountsHere(args: readonly string[], point: string): boolean {
  try {
    execFileSync('mount', [...args, point], { stdio: 'ignore' });
    execFileSync('umount', [point]);
    return true;
  } catch {
    return false;
  }
}

async function probeMounts(): Promise<typeof kind> {
  const point = join(base, 'probe');
  const image = join(base, 'probe.img');
  await mkdir(point);
  if (tool('mkfs.ext4') && tool('blkid')) {
    execFileSync('truncate', ['-s', '4M', image]);
    execFileSync('mkfs.ext4', ['-q', image]);
    if (mountsHere(['-o', 'loop', image], point)) return 'loop';
  }
  return mountsHere(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs'], point) ? 'tmpfs' : null;
}

beforeAll(async () => {
  if (!canMount || findClamdBinary() === null) return;
  base = await mkdtemp(join(tmpdir(), 'verdict-drive-images-'));
  kind = await probeMounts();
  if (kind === 'tmpfs') console.info('no loop devices here: the drives are tmpfs mounts, without label or UUID');
  if (kind !== null) clamd = await startClamd();
});

afterAll(async () => {
  // Lazy: a clamd or reader still holding a file cannot keep the mount (the loop device goes with it).
  for (const point of mounted) execFileSync('umount', ['-l', point], { stdio: 'ignore' });
  await clamd?.stop();
  if (base) await rm(base, { recursive: true, force: true });
});

/** An ext4 image with `label` holding `files`, made from a folder (mke2fs -d), so nothing is mounted to fill it. */
async function driveImage(label: string, files: ReadonlyMap<string, Buffer>): Promise<string> {
  if (kind === 'tmpfs') return '';
  const source = join(base, `${label}-files`);
  await mkdir(source, { recursive: true });
  for (const [name, bytes] of files) await writeFile(join(source, name), bytes);
  const image = join(base, `${label}.img`);
  execFileSync('truncate', ['-s', '16M', image]);
  execFileSync('mkfs.ext4', ['-q', '-L', label, '-d', source, image]);
  return image;
}

/** Mounts the drive; on tmpfs, writes its files then. Returns the UUID the drive should have. */
async function mount(image: string, point: string, files: ReadonlyMap<string, Buffer>): Promise<string | null> {
  if (kind === 'loop') execFileSync('mount', ['-o', 'loop', image, point]);
  else execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', point]);
  mounted.push(point);
  if (kind === 'tmpfs') for (const [name, bytes] of files) await writeFile(join(point, name), bytes);
  // Before the test's folder goes (the fixture removes it last).
  fixture.onCleanup(() => unmount(point));
  return kind === 'loop' ? execFileSync('blkid', ['-o', 'value', '-s', 'UUID', image], { encoding: 'utf8' }).trim() : null;
}

function unmount(point: string): void {
  if (!mounted.includes(point)) return;
  execFileSync('umount', ['-l', point]);
  mounted.splice(mounted.indexOf(point), 1);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The notice with this title (a threat's own notice may come before or after it). */
async function shownWith(title: string): Promise<Notification> {
  await until(() => Notification.shown.some((shown) => shown.options.title === title), title);
  return Notification.shown.find((shown) => shown.options.title === title)!;
}

async function openCore(mountRoot: string) {
  const core = await fixture.open(
    { ...FAST, drives: { mountRoots: [mountRoot], onlyMountRoots: true, pollMs: 0, anyFilesystem: kind === 'tmpfs' } },
    { localService: { engine: 'clamd', clamdSocket: clamd!.socketPath }, watchDrives: true },
  );
  const capture = captureLog();
  fixture.onCleanup(() => capture.cleanup());
  resetFakeElectron();
  const stopOffers = setupDriveNotices({ core, log: capture.log });
  const stopEnds = setupNotifications({ core, onShowScan: () => {}, onOpen: () => {}, log: capture.log, windowMs: 10 });
  fixture.onCleanup(() => {
    stopOffers();
    stopEnds();
  });
  // The first look learns what is already there.
  await core.drives!.check();
  return core;
}

describe.skipIf(!canMount || findClamdBinary() === null)('removable drives', () => {
  test('a labelled drive is offered; Scan runs a job named after it, which finds its EICAR file', async (context) => {
    if (kind === null) return context.skip();
    const mountRoot = join(fixture.dir.path, 'media');
    await mkdir(join(mountRoot, 'VERDICTUSB'), { recursive: true });
    const files = new Map([
      ['eicar.com', Buffer.from(EICAR_TEST_STRING, 'latin1')],
      ['notes.txt', Buffer.from('just notes\n')],
      ['photo.jpg', Buffer.from('not really a photo\n')],
    ]);
    const image = await driveImage('VERDICTUSB', files);
    const core = await openCore(mountRoot);
    const uuid = await mount(image, join(mountRoot, 'VERDICTUSB'), files);
    await core.drives!.check();

    await until(() => Notification.shown.length === 1, 'the offer');
    const offer = Notification.shown[0]!;
    const options = offer.options as { title: string; body: string; actions?: Array<{ text: string }> };
    expect(options.title).toBe('VERDICTUSB was connected');
    expect(options.actions?.map((action) => action.text)).toEqual(['Scan', 'Not now', ...(uuid ? ['Always for this drive'] : [])]);
    expect(core.drives!.offers().map((each) => each.drive)).toEqual([expect.objectContaining({ label: 'VERDICTUSB', uuid, fsType: kind === 'loop' ? 'ext4' : 'tmpfs' })]);

    const scanning = new Promise<number>((resolve) => core.drives!.onEvent((event) => event.type === 'scanning' && resolve(event.jobId)));
    offer.emit('action', {}, 0);
    const job = await core.jobs.finished(await scanning);
    expect(job).toMatchObject({ kind: 'drive', status: 'completed', roots: [join(mountRoot, 'VERDICTUSB')], drive: { label: 'VERDICTUSB', uuid } });
    expect(job?.counts).toMatchObject({ scanned: 3, threats: 1, couldNotScan: 0 });
    expect(core.drives!.offers()).toEqual([]);

    const end = await shownWith('Drive “VERDICTUSB” scanned');
    expect(end.options.body).toMatch(/^3 files scanned, 1 threat, 0 could not be scanned/);
  });

  test('a drive pulled out mid-scan ends its job as cancelled, the drive was removed, with every file accounted for', async (context) => {
    if (kind === null) return context.skip();
    const mountRoot = join(fixture.dir.path, 'media');
    const point = join(mountRoot, 'MIDSCAN');
    await mkdir(point, { recursive: true });
    const files = new Map<string, Buffer>([['eicar.com', Buffer.from(EICAR_TEST_STRING, 'latin1')]]);
    for (let i = 0; i < 700; i++) files.set(`file-${String(i).padStart(3, '0')}.txt`, Buffer.from(`file ${i} of the drive\n`.repeat(1 + (i % 7))));
    const image = await driveImage('MIDSCAN', files);
    const core = await openCore(mountRoot);
    const updated = await core.settings.update({ drives: { when: 'auto', autoScanMaxGb: 64, alwaysScan: [] } });
    expect(updated.ok).toBe(true);

    const records = new Map<string, ScanRecord>();
    core.onEvent((event) => {
      if (event.type !== 'record' || event.record.jobId === undefined) return;
      // A clean file moved into the job's compact store is told under its new id, with the one it had.
      if (event.was !== undefined) records.delete(event.was);
      records.set(event.record.id, event.record);
    });
    let removed: Promise<void> | null = null;
    core.jobs.onEvent((event) => {
      // At the first file's end the drive goes: the core hears of it at its next look.
      if (event.type !== 'file' || removed) return;
      unmount(point);
      removed = core.drives!.check();
    });
    const scanning = new Promise<number>((resolve) => core.drives!.onEvent((event) => event.type === 'scanning' && resolve(event.jobId)));
    await mount(image, point, files);
    await core.drives!.check();
    const jobId = await scanning;
    expect(Notification.shown.filter((shown) => shown.options.title.endsWith('was connected'))).toEqual([]); // `auto`: scanned without asking

    const job = await core.jobs.finished(jobId);
    await removed;
    await core.idle();
    expect(job).toMatchObject({ kind: 'drive', status: 'cancelled', stopReason: 'drive_removed', drive: { label: 'MIDSCAN' } });
    // Kept: read back from the history, the reason is still there.
    expect(core.jobs.list(10).find((each) => each.id === jobId)).toMatchObject({ status: 'cancelled', stopReason: 'drive_removed' });

    const byPath = new Map<string, ScanRecord>();
    for (const record of records.values()) {
      if (record.jobId !== jobId) continue;
      expect(byPath.has(record.path), `${record.path} has one row`).toBe(false);
      byPath.set(record.path, record);
    }
    const outcome = { scanned: 0, couldNotScan: 0, notReached: 0 };
    for (const [name, bytes] of files) {
      const record = byPath.get(join(point, name));
      if (!record) {
        outcome.notReached++;
        continue;
      }
      const verdict = verdictOf(record);
      if (verdict === 'safe' || verdict === 'unsafe') {
        // A verdict only from the file's own bytes.
        expect(record.sha256, name).toBe(sha256(bytes));
        expect(verdict).toBe(name === 'eicar.com' ? 'unsafe' : 'safe');
        outcome.scanned++;
      } else {
        expect(verdict, name).toBe('could-not-scan');
        // The system's reason, as the core words it: gone (ENOENT) or unreadable (EIO).
        expect(record.error?.code, name).toMatch(/^(not_found|file_unreadable)$/);
        expect(JSON.stringify(record.error), name).toMatch(/gone|ENOENT|EIO/);
        outcome.couldNotScan++;
      }
    }
    expect(byPath.size).toBe(outcome.scanned + outcome.couldNotScan);
    expect(outcome.scanned).toBeLessThan(files.size); // it was mid-scan
    expect(outcome.scanned + outcome.couldNotScan + outcome.notReached).toBe(files.size);
    console.info(`pulled out mid-scan: ${JSON.stringify(outcome)} of ${files.size} files`);

    const end = await shownWith('Scan of drive “MIDSCAN” cancelled: the drive was removed');
    expect(end.options.body).toMatch(/Files it had not reached were not scanned\.$/);
  });
});

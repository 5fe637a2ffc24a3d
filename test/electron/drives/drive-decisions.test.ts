// What a mounted drive gets (ask, scan, never; the size cap; Always for this drive), and the
// coordinator's steps over a recorded source and a stand-in for the jobs: the first look learns
// what is there; a new drive is offered or scanned; a drive that goes cancels its scan with
// `drive_removed`; a drive job left unfinished by an earlier run is ended when its drive is gone.
// The words of its notices in en and de. (The real mounts, jobs and clamd: drive-mount.test.ts.)
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Drive, DriveEvent, DriveMount, DriveSource } from '../../../electron/drives/drive.ts';
import { decideDrive } from '../../../electron/drives/drive-policy.ts';
import { createDrives } from '../../../electron/drives/drives.ts';
import { driveJobNotice, driveOfferNotice } from '../../../electron/shell/drive-words.ts';
import type { JobState } from '../../../shared/jobs/job.ts';
import { driveSettingsSchema, GB, type DriveSettings } from '../../../shared/settings/drives.ts';

const settings = (change: Partial<DriveSettings> = {}): DriveSettings => driveSettingsSchema.parse(change);
const stick = (change: Partial<Drive> = {}): Drive => ({ mountPoint: '/media/alice/STICK', device: '/dev/sdb1', fsType: 'vfat', label: 'STICK', uuid: '3A2F-1C0D', sizeBytes: 16 * GB, ...change });

describe('the decision', () => {
  test('ask offers; auto scans; never leaves it; over the cap (or of unknown size) only offered; always scans within the cap', () => {
    expect(decideDrive(stick(), settings())).toEqual({ decision: 'offer', why: 'ask' });
    expect(decideDrive(stick(), settings({ when: 'auto' }))).toEqual({ decision: 'scan' });
    expect(decideDrive(stick(), settings({ when: 'never', alwaysScan: [{ uuid: '3A2F-1C0D', label: 'STICK' }] }))).toEqual({ decision: 'ignore' });
    expect(decideDrive(stick({ sizeBytes: 65 * GB }), settings({ when: 'auto' }))).toEqual({ decision: 'offer', why: 'too-large' });
    expect(decideDrive(stick({ sizeBytes: null }), settings({ when: 'auto' }))).toEqual({ decision: 'offer', why: 'too-large' });
    expect(decideDrive(stick(), settings({ alwaysScan: [{ uuid: '3A2F-1C0D', label: 'STICK' }] }))).toEqual({ decision: 'scan' });
    expect(decideDrive(stick({ uuid: null }), settings({ alwaysScan: [{ uuid: '3A2F-1C0D', label: 'STICK' }] }))).toEqual({ decision: 'offer', why: 'ask' });
  });

  test('a drive over the cap is never scanned by itself, whatever the settings', () => {
    const settingsArb = fc.record({ when: fc.constantFrom('ask' as const, 'auto' as const, 'never' as const), autoScanMaxGb: fc.integer({ min: 1, max: 100_000 }), always: fc.boolean() });
    fc.assert(
      fc.property(settingsArb, fc.double({ min: 0, max: 1e15, noNaN: true }), ({ when, autoScanMaxGb, always }, size) => {
        const decided = decideDrive(stick({ sizeBytes: size }), settings({ when, autoScanMaxGb, alwaysScan: always ? [{ uuid: '3A2F-1C0D', label: 'STICK' }] : [] }));
        if (size > autoScanMaxGb * GB || when === 'never') expect(decided.decision).not.toBe('scan');
      }),
    );
  });
});

function fakeSource(): DriveSource & { mounts: DriveMount[] } {
  const source = {
    mounts: [] as DriveMount[],
    list: async () => [...source.mounts],
    identify: async (mount: DriveMount) => stick({ ...mount, label: mount.mountPoint.split('/').pop()!, uuid: `UUID-${mount.device.slice(-4)}` }),
  };
  return source;
}

function fakeJobs(unfinished: JobState[] = []) {
  const started: Array<{ id: number; roots: readonly string[] | undefined; drive: unknown; origin: unknown }> = [];
  const cancelled: Array<{ id: number; reason: unknown }> = [];
  const job = (id: number, status: JobState['status'] = 'running') => ({ id, status }) as JobState;
  return {
    started,
    cancelled,
    jobs: {
      start: async (request: { roots?: readonly string[]; drive?: unknown; origin?: unknown }) => {
        const id = started.length + 100;
        started.push({ id, roots: request.roots, drive: request.drive, origin: request.origin });
        return job(id);
      },
      cancel: (id: number, reason?: unknown) => {
        cancelled.push({ id, reason });
        return job(id, 'cancelled');
      },
      finished: () => new Promise<JobState | null>(() => {}),
      get: (id: number) => job(id),
      list: () => unfinished,
    },
  };
}

describe('the coordinator', () => {
  test('learns what is there first; offers a new drive; Scan starts its job once; its removal cancels it with drive_removed', async () => {
    const source = fakeSource();
    source.mounts = [{ mountPoint: '/media/alice/OLD', device: '/dev/sdc1', fsType: 'vfat' }];
    const { jobs, started, cancelled } = fakeJobs();
    let current = settings();
    const drives = createDrives({ source, jobs, settings: { read: async () => current, alwaysFor: async (uuid, label) => void (current = settings({ alwaysScan: [{ uuid, label }] })) }, pollMs: 0, onError: (error) => { throw error; } });
    const events: DriveEvent[] = [];
    drives.onEvent((event) => events.push(event));
    await drives.check();
    expect(events).toEqual([]); // mounted before: not offered

    source.mounts.push({ mountPoint: '/media/alice/STICK', device: '/dev/sdb1', fsType: 'vfat' });
    await drives.check();
    expect(events.map((event) => event.type)).toEqual(['offer']);
    expect(drives.offers().map((offer) => offer.drive.label)).toEqual(['STICK']);

    await drives.scan('/media/alice/STICK');
    await drives.scan('/media/alice/STICK'); // a second Scan: the running job
    expect(started).toEqual([{ id: 100, roots: ['/media/alice/STICK'], drive: { label: 'STICK', uuid: 'UUID-sdb1' }, origin: 'dialog' }]);
    expect(drives.offers()).toEqual([]);

    source.mounts = source.mounts.filter((mount) => mount.mountPoint !== '/media/alice/STICK');
    await drives.check();
    expect(cancelled).toEqual([{ id: 100, reason: 'drive_removed' }]);
    expect(events.at(-1)).toMatchObject({ type: 'removed', jobId: 100 });

    // Another stick on the same mount point is a new drive; Always for this drive keeps its UUID and scans it.
    source.mounts.push({ mountPoint: '/media/alice/STICK', device: '/dev/sdd1', fsType: 'vfat' });
    await drives.check();
    expect(await drives.alwaysFor('/media/alice/STICK')).toBe(true);
    expect(current.alwaysScan).toEqual([{ uuid: 'UUID-sdd1', label: 'STICK' }]);
    expect(started.at(-1)).toMatchObject({ drive: { uuid: 'UUID-sdd1' } });
    drives.close();
  });

  test('auto scans with the origin of a scan no one started; a drive job of an earlier run whose drive is gone ends as drive_removed', async () => {
    const source = fakeSource();
    const leftOver = [
      { id: 7, kind: 'drive', status: 'interrupted', roots: ['/media/alice/GONE'] },
      { id: 8, kind: 'drive', status: 'cancelled', roots: ['/media/alice/GONE'] },
      { id: 9, kind: 'full', status: 'interrupted', roots: ['/home/alice'] },
    ] as JobState[];
    const { jobs, started, cancelled } = fakeJobs(leftOver);
    const drives = createDrives({ source, jobs, settings: { read: async () => settings({ when: 'auto' }), alwaysFor: async () => {} }, pollMs: 0, onError: (error) => { throw error; } });
    await drives.check();
    expect(cancelled).toEqual([{ id: 7, reason: 'drive_removed' }]);
    source.mounts.push({ mountPoint: '/media/alice/STICK', device: '/dev/sdb1', fsType: 'vfat' });
    await drives.check();
    expect(started).toMatchObject([{ roots: ['/media/alice/STICK'], origin: 'schedule' }]);
    drives.close();
  });
});

describe('the words', () => {
  test('the offer and the end of a drive job, in en and de', () => {
    expect(driveOfferNotice({ drive: stick(), why: 'ask' }, 'en')).toEqual({ title: 'STICK was connected', body: 'Scan it for malware now? Click to scan it.', actions: ['Scan', 'Not now', 'Always for this drive'] });
    expect(driveOfferNotice({ drive: stick({ uuid: null, sizeBytes: 128 * GB }), why: 'too-large' }, 'de')).toEqual({
      title: 'STICK wurde angeschlossen',
      body: 'Mit 128 GB ist es größer als Ihre Grenze, daher prüft Verdict es nicht von selbst. Klicken Sie, um es jetzt zu prüfen.',
      actions: ['Prüfen', 'Nicht jetzt'],
    });
    // A label is a name: a bidi control cannot disguise it.
    expect(driveOfferNotice({ drive: stick({ label: 'PHOTOS\u202Eexe.jpg' }), why: 'ask' }, 'en').title).toBe('PHOTOS⟨U+202E⟩exe.jpg was connected');
    const job = { status: 'cancelled', stopReason: 'drive_removed', drive: { label: 'STICK', uuid: null }, activeMs: 60_000, counts: { found: 10, bytes: 0, scanned: 4, threats: 1, couldNotScan: 2, skipped: 0 } } as const;
    expect(driveJobNotice(job, 'en')).toMatchObject({ title: 'Scan of drive “STICK” cancelled: the drive was removed', body: expect.stringMatching(/^4 files scanned, 1 threat, 2 could not be scanned.*Files it had not reached were not scanned\.$/) });
    expect(driveJobNotice(job, 'de')?.title).toBe('Prüfung von Laufwerk „STICK“ abgebrochen: Das Laufwerk wurde entfernt');
    expect(driveJobNotice({ ...job, status: 'completed', stopReason: undefined }, 'de')?.title).toBe('Laufwerk „STICK“ geprüft');
    expect(driveJobNotice({ ...job, status: 'running' }, 'en')).toBeNull();
  });
});

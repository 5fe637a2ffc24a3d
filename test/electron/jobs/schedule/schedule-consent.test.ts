// A scheduled scan with a remote service the user has not agreed to send files to: its
// files would wait for consent with no one there to give it, so the run is skipped and
// says why (the view's outcome and service, for the notification), and nothing is sent.
// Once the user has agreed to that service, the next due time runs and uploads. The real
// core, a second real local service configured as the remote one (its key in a private
// gnome-keyring), real files and a fake clock.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreInternals } from '../../../../electron/core/create-core.ts';
import type { ScanSchedules } from '../../../../shared/settings/schedules.ts';
import { keyringTestsCanRun, startKeyring, type Keyring } from '../../../support/keyring.ts';
import { FAST, startTestService, tempDir, type TestService } from '../../scans/harness.ts';
import { writeTree } from '../job-kit.ts';
import { fakeClock, fakePower } from './fake-clock.ts';

const canRun = keyringTestsCanRun();
let keyring: Keyring | null = null;
let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
let core: CoreInternals | undefined;

beforeAll(async () => {
  if (!canRun) return;
  keyring = await startKeyring();
  dir = await tempDir('verdict-schedule-consent-');
  service = await startTestService(join(dir.path, 'service'));
});
afterAll(async () => {
  await core?.close();
  await service?.close();
  await keyring?.stop();
  await dir?.remove();
});

const HOUR = 3_600_000;
/** Local wall time, away from any DST change. */
const local = (d: number, h: number) => new Date(2026, 10, d, h).getTime();
const quickDaily: ScanSchedules = { quick: { repeat: 'daily', time: '13:00' }, full: { repeat: 'off' }, skipOnBattery: false };

describe.runIf(canRun)('a scheduled scan and upload consent', () => {
  it('is skipped, saying for which service, while its files would wait for consent; runs once the user has agreed', async () => {
    const home = join(dir.path, 'home');
    await writeTree(join(home, 'Downloads'), 3);
    const clock = fakeClock(local(25, 12));
    core = await createCore(
      { dataDir: join(dir.path, 'data'), keychainService: `verdict-schedule-consent-${process.pid}`, power: fakePower() },
      { ...FAST, jobPlaces: { platform: 'linux', home, env: { TMPDIR: join(home, 'no-tmp') } }, scheduleClock: clock },
    );
    const origin = new URL(service.url).origin;
    expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: service.url } })).ok).toBe(true);
    expect((await core.settings.setApiKey(service.key)).ok).toBe(true);
    expect((await core.settings.update({ scanSchedules: quickDaily })).ok).toBe(true);
    const before = service.scanCount();
    const quick = () => core!.schedules.view().kinds.find((kind) => kind.kind === 'quick')!;
    const scheduled = () => core!.jobs.list().filter((job) => job.origin === 'schedule');

    clock.advance(HOUR);
    await core.schedules.settled();
    expect(scheduled()).toEqual([]);
    expect(quick()).toMatchObject({ lastOutcome: 'skipped_consent', skippedFor: origin, lastRunAt: new Date(local(25, 13)).toISOString(), activity: 'idle' });
    expect(service.scanCount()).toBe(before);
    // Served: it is not tried again until its next time.
    clock.advance(HOUR);
    await core.schedules.settled();
    expect(scheduled()).toEqual([]);

    // The user agreed to this service ("Don't ask again for …"): the next due time runs and sends its files.
    expect((await core.settings.update({ remoteUploadConsentHosts: [origin] })).ok).toBe(true);
    clock.advance(23 * HOUR);
    await core.schedules.settled();
    expect(scheduled()).toHaveLength(1);
    expect(scheduled()[0]).toMatchObject({ status: 'completed', counts: { scanned: 3, couldNotScan: 0 } });
    expect(quick()).toMatchObject({ lastOutcome: 'ran', skippedFor: null });
    expect(service.scanCount()).toBe(before + 3);
  });
});

// A file judged clean before and detected after a signature update: the most important notice,
// "invoice.pdf, downloaded 3 days ago, is now detected as X", with what the threat response did,
// in the user's language; a click opens that scan. The recheck job's threat is not told a second
// time as a plain threat.
import { describe, expect, it, vi } from 'vitest';
import type { RecheckFinding } from '../../../electron/recheck/seen-files.ts';
import { setupNotifications } from '../../../electron/shell/notifications.ts';
import { realTimers } from '../../../electron/shell/event-batcher.ts';
import { Notification } from './fake-electron.ts';
import { useNotificationsFixture } from './notifications-fixture.ts';
import { jobProgress, scanRecord } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const fx = useNotificationsFixture({ windowMs: 50 });
const DAY_MS = 86_400_000;

function startWithRecheck(): { stop: () => void; find: (finding: RecheckFinding) => void } {
  const listeners = new Set<(finding: RecheckFinding) => void>();
  const recheck = {
    onFinding: (listener: (finding: RecheckFinding) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  // The test core with the recheck's findings beside it (its methods stay the test core's).
  const core = Object.assign(Object.create(fx.core) as typeof fx.core, { recheck });
  const stop = setupNotifications({ core, onShowScan: fx.onShowScan as unknown as (id: string) => void, onOpen: fx.onOpen as unknown as () => void, log: fx.capture.log, windowMs: 50, timers: realTimers });
  return { stop, find: (finding) => listeners.forEach((listener) => listener(finding)) };
}

const threat = scanRecord({
  id: 'new-scan',
  path: '/home/me/Downloads/invoice.pdf',
  fileName: 'invoice.pdf',
  status: 'completed',
  safe: false,
  detailed: 'infected',
  findings: [{ name: 'Pdf.Trojan.Agent-123' }],
  disposition: 'quarantined',
  jobId: 9,
});

describe('a file detected after a signature update', () => {
  it('is told as what it is, once, and a click opens its scan', async () => {
    const { stop, find } = startWithRecheck();
    fx.core.emitJob({ type: 'progress', progress: jobProgress({ id: 9, kind: 'recheck' }) });
    // The job's threat as a record event: left to the finding's own notice.
    fx.core.emit({ type: 'record', record: threat });
    find({ record: threat, previousId: 'old-scan', firstSeenMs: Date.now() - 3 * DAY_MS - 1000, origin: 'watch' });
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(Notification.shown).toHaveLength(1);
    expect(Notification.shown[0]!.options).toMatchObject({
      title: 'invoice.pdf, downloaded 3 days ago, is now detected as Pdf.Trojan.Agent-123',
      body: expect.stringContaining('Verdict moved the file to quarantine'),
    });
    Notification.shown[0]!.emit('click');
    expect(fx.onShowScan).toHaveBeenCalledWith('new-scan');
    stop();
  });

  it('speaks German', async () => {
    fx.core.settingsValue = { ...fx.core.settingsValue, language: 'de' };
    const { stop, find } = startWithRecheck();
    find({ record: { ...threat, disposition: null }, previousId: 'old-scan', firstSeenMs: Date.now() - DAY_MS - 1000, origin: 'drop' });
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({
      title: 'invoice.pdf, gestern zuerst gesehen, wird jetzt als Pdf.Trojan.Agent-123 erkannt',
      body: expect.stringContaining('Verdict hat die Datei gelassen, wo sie ist'),
    });
    stop();
  });
});

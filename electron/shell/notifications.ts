// Desktop notifications for finished scans: the rules are in notification-rules.ts;
// this wires them to the core's events and Electron's Notification.
import { Notification } from 'electron';
import type { Core } from '../core/core.ts';
import type { Logger } from '../logging/logger.ts';
import { realTimers, type Timers } from './event-batcher.ts';
import { isFinalStatus, shownOutsideItsJob } from '../../shared/jobs/job.ts';
import { createFinishedScanCollector, DEFAULT_MAX_INDIVIDUAL, jobNotice, planNotifications, type Notice, type NotificationPolicy } from './notification-rules.ts';
import { shellLanguage, textsFor } from './texts.ts';

export interface NotificationsOptions {
  core: Pick<Core, 'onEvent' | 'settings'> & Partial<Pick<Core, 'scanJobs'>>;
  /** A click on a notice about one scan. */
  onShowScan(id: string): void;
  /** A click on a notice about many. */
  onOpen(): void;
  log: Logger;
  iconPath?: string;
  /** Scans finishing within this window are notified together (default 1.5 s). */
  windowMs?: number;
  timers?: Timers;
  /** What Verdict did with an unsafe file, when the core can tell (e.g. quarantine). */
  outcomeOf?: NotificationPolicy['outcomeOf'];
}

export function setupNotifications(options: NotificationsOptions): () => void {
  if (!Notification.isSupported()) {
    options.log.info('notifications are not supported on this system');
    return () => {};
  }
  // Electron drops a notification's click handler once the object is collected; keep them.
  const live = new Set<Notification>();
  const show = (notice: Notice) => {
    const notification = new Notification({ title: notice.title, body: notice.body, ...(options.iconPath ? { icon: options.iconPath } : {}) });
    live.add(notification);
    notification.on('click', () => {
      live.delete(notification);
      if (notice.scanId) options.onShowScan(notice.scanId);
      else options.onOpen();
    });
    notification.on('close', () => live.delete(notification));
    notification.show();
  };
  const collector = createFinishedScanCollector({
    windowMs: options.windowMs ?? 1500,
    timers: options.timers ?? realTimers,
    onBatch: (batch) => {
      void (async () => {
        const settings = await options.core.settings.get();
        const notifyClean = settings.ok ? settings.value.notifyClean : false;
        const texts = textsFor(await shellLanguage(options.core.settings));
        const policy: NotificationPolicy = { notifyClean, maxIndividual: DEFAULT_MAX_INDIVIDUAL, ...(options.outcomeOf ? { outcomeOf: options.outcomeOf } : {}) };
        for (const notice of planNotifications(batch, policy, texts)) show(notice);
      })().catch((error: unknown) => options.log.error({ err: error }, 'could not show notifications'));
    },
  });
  // A job's own files are told once, in its summary at the end; only its threats are notified as they come.
  const stop = options.core.onEvent((event) => {
    if (event.type === 'record' && shownOutsideItsJob(event.record)) collector.offer(event.record);
  });
  const toldJobs = new Set<number>();
  const stopJobs = options.core.scanJobs?.onEvent((update) => {
    if (update.type !== 'progress' || !isFinalStatus(update.progress.job.status) || toldJobs.has(update.progress.job.id)) return;
    const job = update.progress.job;
    void shellLanguage(options.core.settings)
      .then((language) => {
        const notice = jobNotice(job, textsFor(language));
        if (!notice || toldJobs.has(job.id)) return;
        toldJobs.add(job.id);
        show(notice);
      })
      .catch((error: unknown) => options.log.error({ err: error }, 'could not show the end of a scan job'));
  });
  return () => {
    stop();
    stopJobs?.();
    collector.dispose();
    for (const notification of live) notification.close();
    live.clear();
  };
}

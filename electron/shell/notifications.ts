// Desktop notifications for finished scans, finished scan jobs, a scheduled scan
// skipped for want of upload consent and a self-test the engine failed (protection
// `failing`): the rules are in notification-rules.ts; this
// wires them to the core's events and Electron's Notification.
import { Notification } from 'electron';
import type { Core } from '../core/core.ts';
import type { Logger } from '../logging/logger.ts';
import { realTimers, type Timers } from './event-batcher.ts';
import { isFinalStatus, shownOutsideItsJob } from '../../shared/jobs/job.ts';
import { createFinishedScanCollector, DEFAULT_MAX_INDIVIDUAL, jobNotice, planNotifications, type Notice, type NotificationPolicy } from './notification-rules.ts';
import { consentHostLabel } from '../../shared/settings/protection.ts';
import { shellLanguage, textsFor } from './texts.ts';
import { recheckNotice } from './recheck-notice.ts';
import { driveJobNotice } from './drive-words.ts';

export interface NotificationsOptions {
  core: Pick<Core, 'onEvent' | 'settings'> & Partial<Pick<Core, 'scanJobs' | 'schedules' | 'protection' | 'recheck'>>;
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
  // A recheck's threats have a notice of their own (recheck-notice.ts), told from its findings.
  const rechecks = new Set<number>();
  const stopRecheck = options.core.recheck?.onFinding((finding) => {
    void shellLanguage(options.core.settings)
      .then((language) => {
        const notice = recheckNotice(finding, language, Date.now());
        if (notice) show(notice);
      })
      .catch((error: unknown) => options.log.error({ err: error }, 'could not tell of a file detected after a signature update'));
  });
  // A job's own files are told once, in its summary at the end; only its threats are notified as they come.
  const stop = options.core.onEvent((event) => {
    if (event.type !== 'record' || !shownOutsideItsJob(event.record)) return;
    if (options.core.recheck && event.record.jobId != null && rechecks.has(event.record.jobId)) return;
    collector.offer(event.record);
  });
  const toldJobs = new Set<number>();
  const stopJobs = options.core.scanJobs?.onEvent((update) => {
    if (update.type === 'progress' && update.progress.job.kind === 'recheck') rechecks.add(update.progress.job.id);
    if (update.type !== 'progress' || !isFinalStatus(update.progress.job.status) || toldJobs.has(update.progress.job.id)) return;
    const job = update.progress.job;
    void shellLanguage(options.core.settings)
      .then((language) => {
        const notice = job.kind === 'drive' ? driveJobNotice(job, language) : jobNotice(job, textsFor(language));
        if (!notice || toldJobs.has(job.id)) return;
        toldJobs.add(job.id);
        show(notice);
      })
      .catch((error: unknown) => options.log.error({ err: error }, 'could not show the end of a scan job'));
  });
  const stopSchedules = notifySkippedSchedules(options, show);
  const stopSelfTest = notifyFailingDetection(options, show);
  return () => {
    stop();
    stopRecheck?.();
    stopJobs?.();
    stopSchedules();
    stopSelfTest();
    collector.dispose();
    for (const notification of live) notification.close();
    live.clear();
  };
}

/**
 * A scheduled scan skipped because its files would have waited for the user's consent to upload:
 * told once per skipped run (not for one an earlier run of the app skipped), with what to do.
 */
function notifySkippedSchedules(options: NotificationsOptions, show: (notice: Notice) => void): () => void {
  const { schedules } = options.core;
  if (!schedules) return () => {};
  const skips = (view: ReturnType<typeof schedules.view>) =>
    view.kinds.filter((kind) => kind.lastOutcome === 'skipped_consent' && kind.skippedFor !== null).map((kind) => ({ ...kind, key: `${kind.kind}@${kind.lastRunAt}` }));
  const told = new Set(skips(schedules.view()).map((skip) => skip.key));
  return schedules.onChange((view) => {
    for (const skip of skips(view)) {
      if (told.has(skip.key)) continue;
      told.add(skip.key);
      void shellLanguage(options.core.settings)
        .then((language) => {
          const texts = textsFor(language);
          show({ kind: 'schedule', title: texts.scheduleSkippedTitle(skip.kind), body: texts.scheduleSkippedBody(consentHostLabel(skip.skippedFor ?? '')), scanId: null });
        })
        .catch((error: unknown) => options.log.error({ err: error }, 'could not tell of a skipped scheduled scan'));
    }
  });
}

/** The engine missed EICAR in its self-test: told when protection becomes `failing`, again only after it recovered. */
function notifyFailingDetection(options: NotificationsOptions, show: (notice: Notice) => void): () => void {
  const { protection } = options.core;
  if (!protection) return () => {};
  let failing = false;
  return protection.onChange((view) => {
    const now = view.status?.state === 'failing';
    if (now && !failing) {
      void shellLanguage(options.core.settings)
        .then((language) => {
          const texts = textsFor(language);
          show({ kind: 'self-test', title: texts.selfTestFailedTitle, body: texts.selfTestFailedBody, scanId: null });
        })
        .catch((error: unknown) => options.log.error({ err: error }, 'could not tell of a failed self-test'));
    }
    failing = now;
  });
}

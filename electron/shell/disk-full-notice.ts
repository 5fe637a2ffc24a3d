// Tells the user when the disk under the data folder fills up while Verdict runs.
// The writes that fail (history, the quarantine journal) have no caller left to
// answer; they reach the process's unhandled-rejection handler (main.ts hands
// them here as well as to the log). A notice in the user's language, at most one
// every 10 minutes, since every file in flight fails the same way.
import { Notification } from 'electron';
import { isDiskFull } from '../core/disk-full.ts';
import { diskFullTexts } from '../core/disk-full-text.ts';
import type { Logger } from '../logging/logger.ts';
import type { ShellLanguage } from './texts.ts';

const QUIET_MS = 10 * 60_000;

export interface DiskFullNoticeOptions {
  dataDir: string;
  language(): Promise<ShellLanguage>;
  /** A click on the notice opens the window. */
  onOpen(): void;
  iconPath?: string;
  log: Logger;
  now?: () => number;
}

export interface DiskFullNotice {
  /** An error nothing caught: true when it was a full data disk (told, or told a moment ago). */
  offer(error: unknown): boolean;
}

export function createDiskFullNotice(options: DiskFullNoticeOptions): DiskFullNotice {
  const now = options.now ?? Date.now;
  let lastShown = -Infinity;
  // Kept so Electron does not drop the click handler with a collected notification.
  let live: Notification | null = null;
  const show = async () => {
    const texts = diskFullTexts(await options.language());
    live = new Notification({ title: texts.noticeTitle, body: texts.noticeBody(options.dataDir), ...(options.iconPath ? { icon: options.iconPath } : {}) });
    live.on('click', () => options.onOpen());
    live.show();
  };
  return {
    offer(error) {
      if (!isDiskFull(error, options.dataDir)) return false;
      if (now() - lastShown < QUIET_MS || !Notification.isSupported()) return true;
      lastShown = now();
      void show().catch((failure: unknown) => options.log.warn({ err: failure }, 'could not say that the data disk is full'));
      return true;
    },
  };
}

/** Hands every unhandled rejection to the notice as well (logging.ts logs them); returns the undo. */
export function setupDiskFullNotice(options: DiskFullNoticeOptions): () => void {
  const notice = createDiskFullNotice(options);
  const onRejection = (reason: unknown) => void notice.offer(reason);
  process.on('unhandledRejection', onRejection);
  return () => void process.off('unhandledRejection', onRejection);
}

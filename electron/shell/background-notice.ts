// Closing the window while folders are watched hides it, and the tray icon is the way
// back. Where no tray icon can be shown (stock GNOME), Verdict would seem to have quit:
// say once per run, in a notification, that it keeps watching and how to open it again.
import { Notification } from 'electron';
import type { Logger } from '../logging/logger.ts';
import type { ShellTexts } from './texts.ts';

export interface BackgroundNoticeOptions {
  trayIconVisible(): Promise<boolean>;
  texts(): Promise<ShellTexts>;
  /** A click on the notice opens the window. */
  onOpen(): void;
  iconPath?: string;
  log: Logger;
}

export interface BackgroundNotice {
  /** The window was hidden instead of closed. */
  windowHidden(): void;
}

export function createBackgroundNotice(options: BackgroundNoticeOptions): BackgroundNotice {
  let said = false;
  // Kept so Electron does not drop the click handler with a collected notification.
  let live: Notification | null = null;
  const say = async () => {
    if (await options.trayIconVisible()) return;
    if (!Notification.isSupported()) return;
    const texts = await options.texts();
    live = new Notification({ title: texts.backgroundTitle, body: texts.backgroundBody, ...(options.iconPath ? { icon: options.iconPath } : {}) });
    live.on('click', () => options.onOpen());
    live.show();
  };
  return {
    windowHidden() {
      if (said) return;
      said = true;
      void say().catch((error: unknown) => options.log.warn({ err: error }, 'could not say that Verdict keeps watching'));
    },
  };
}

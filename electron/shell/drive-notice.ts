// Removable drives' offers as desktop notifications: *Scan*, *Not now* and *Always for this
// drive* as buttons where the system shows them (macOS, Windows); a click on the notice scans
// (Linux shows no buttons through Electron, and the words say "Click to scan it").
// An offer's notice goes when its drive goes.
import { Notification } from 'electron';
import type { Core } from '../core/core.ts';
import type { Logger } from '../logging/logger.ts';
import { driveOfferNotice } from './drive-words.ts';
import { shellLanguage } from './texts.ts';

export interface DriveNoticesOptions {
  core: Pick<Core, 'settings'> & { drives?: Core['drives'] };
  log: Logger;
  iconPath?: string;
}

/** The index of each button in a notice's actions. */
const SCAN = 0;
const NOT_NOW = 1;
const ALWAYS = 2;

export function setupDriveNotices(options: DriveNoticesOptions): () => void {
  const drives = options.core.drives;
  if (!drives || !Notification.isSupported()) return () => {};
  // Electron drops a notification's handlers once the object is collected; keep them, by mount point.
  const live = new Map<string, Notification>();
  const failed = (error: unknown) => options.log.error({ err: error }, 'could not scan a removable drive');
  const stop = drives.onEvent((event) => {
    const point = event.type === 'offer' ? event.offer.drive.mountPoint : event.drive.mountPoint;
    live.get(point)?.close();
    live.delete(point);
    if (event.type !== 'offer') return;
    void shellLanguage(options.core.settings)
      .then((language) => {
        const words = driveOfferNotice(event.offer, language);
        const notification = new Notification({
          title: words.title,
          body: words.body,
          actions: words.actions.map((text) => ({ type: 'button' as const, text })),
          ...(options.iconPath ? { icon: options.iconPath } : {}),
        });
        live.set(point, notification);
        const answered = () => live.get(point) === notification && live.delete(point);
        notification.on('click', () => {
          answered();
          void drives.scan(point).catch(failed);
        });
        notification.on('action', (_event, index) => {
          answered();
          if (index === SCAN) void drives.scan(point).catch(failed);
          else if (index === NOT_NOW) drives.notNow(point);
          else if (index === ALWAYS) void drives.alwaysFor(point).catch(failed);
        });
        // Closed (or expired into the system's list) is not an answer: the offer stays until its drive goes.
        notification.on('close', () => void answered());
        notification.show();
      })
      .catch((error: unknown) => options.log.error({ err: error }, 'could not offer to scan a removable drive'));
  });
  return () => {
    stop();
    for (const notification of live.values()) notification.close();
    live.clear();
  };
}

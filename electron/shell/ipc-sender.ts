// Who may talk to the main process over IPC: only the main frame of our own
// window, showing a page from the app's origin (Electron's checklist, item 17).
import type { IpcMainInvokeEvent } from 'electron';
import { isAppUrl } from './app-origin.ts';

export interface SenderInfo {
  webContentsId: number;
  /** URL of the frame that sent the message; null when the frame is gone. */
  frameUrl: string | null;
  isMainFrame: boolean;
}

export interface TrustedSender {
  /** The id of our window's web contents; null while there is no window. */
  webContentsId: number | null;
  origins: readonly string[];
}

export function senderInfo(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>): SenderInfo {
  const frame = event.senderFrame;
  return { webContentsId: event.sender.id, frameUrl: frame ? frame.url : null, isMainFrame: frame !== null && frame.parent === null };
}

/** Pure: the message comes from our window's main frame at an app URL. */
export function isTrustedSender(sender: SenderInfo, trusted: TrustedSender): boolean {
  return (
    trusted.webContentsId !== null &&
    sender.webContentsId === trusted.webContentsId &&
    sender.isMainFrame &&
    sender.frameUrl !== null &&
    isAppUrl(sender.frameUrl, trusted.origins)
  );
}

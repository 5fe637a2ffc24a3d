// Closing the window while folders are watched where no tray icon can be shown: one
// notification per run that Verdict keeps watching and how to open it again. Plus the
// check behind "no tray icon can be shown" (a StatusNotifierWatcher on the session bus).
import { describe, expect, it, vi } from 'vitest';
import { createBackgroundNotice } from '../../../electron/shell/background-notice.ts';
import { textsFor } from '../../../electron/shell/texts.ts';
import { trayIconVisible } from '../../../electron/shell/tray-host.ts';
import { BrowserWindow, Notification } from './fake-electron.ts';
import { useFreshShell, type LogCapture } from './log-capture.ts';
import { createWindowController } from '../../../electron/shell/window.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
useFreshShell((started) => (capture = started));

function setup(visible: boolean) {
  const onOpen = vi.fn();
  const notice = createBackgroundNotice({ trayIconVisible: async () => visible, texts: async () => textsFor('en'), onOpen, log: capture.log });
  const windows = createWindowController(() => new BrowserWindow({}) as never, () => true, () => notice.windowHidden());
  return { onOpen, windows };
}

describe('the background notice', () => {
  it('says once, when the window is hidden with no tray icon, that Verdict keeps watching; a click opens it', async () => {
    const { onOpen, windows } = setup(false);
    windows.show();
    (BrowserWindow.instances[0] as unknown as BrowserWindow).userClose();
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({ title: 'Verdict keeps watching', body: expect.stringContaining('To open Verdict again, start it from your applications.') });
    Notification.shown[0]!.emit('click');
    expect(onOpen).toHaveBeenCalledTimes(1);

    windows.show();
    (BrowserWindow.instances[0] as unknown as BrowserWindow).userClose();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Notification.shown).toHaveLength(1);
  });

  it('says nothing where the tray icon shows', async () => {
    const { windows } = setup(true);
    windows.show();
    (BrowserWindow.instances[0] as unknown as BrowserWindow).userClose();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(BrowserWindow.instances[0]!.visible).toBe(false);
    expect(Notification.shown).toHaveLength(0);
  });
});

describe('trayIconVisible', () => {
  it('asks the session bus whether a StatusNotifierWatcher runs (Linux)', async () => {
    const run = vi.fn(async () => '   boolean true\n');
    expect(await trayIconVisible('linux', run)).toBe(true);
    expect(run).toHaveBeenCalledWith('dbus-send', expect.arrayContaining(['--session', 'org.freedesktop.DBus.NameHasOwner', 'string:org.kde.StatusNotifierWatcher']));
    expect(await trayIconVisible('linux', async () => '   boolean false\n')).toBe(false);
  });

  it('is false when the bus cannot tell, and true on macOS and Windows', async () => {
    expect(await trayIconVisible('linux', async () => Promise.reject(new Error('no bus')))).toBe(false);
    const run = vi.fn(async () => '');
    expect(await trayIconVisible('darwin', run)).toBe(true);
    expect(await trayIconVisible('win32', run)).toBe(true);
    expect(run).not.toHaveBeenCalled();
  });

  it('runs the real dbus-send: with no session bus there is no watcher', async () => {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/verdict-test-bus';
    try {
      expect(await trayIconVisible('linux')).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });
});

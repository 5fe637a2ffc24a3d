// Verdict's main process: the composition root. It creates the core and the
// shell's parts and wires them together; each concern lives in electron/shell/.
// Order matters: the app scheme and sandbox before ready; session hardening, the
// app protocol and every IPC handler before the window loads.
import path from 'node:path';
import { app, session } from 'electron';
import { createCore } from './core/create-core.ts';
import { createFileManagerMenuHandlers } from './file-manager-menus/menu-handlers.ts';
import type { Core } from './core/core.ts';
import { createSecretList, type Logger, type SecretList } from './logging/logger.ts';
import { APP_START_URL, appOrigins } from './shell/app-origin.ts';
import { registerAppScheme, serveAppProtocol } from './shell/app-protocol.ts';
import { contentSecurityPolicy } from './shell/csp.ts';
import { showStartupError } from './shell/dialogs.ts';
import { setupDiskFullNotice } from './shell/disk-full-notice.ts';
import { createBackgroundNotice } from './shell/background-notice.ts';
import { createFileHandlers } from './shell/files.ts';
import { createSavedScanFilePickers } from './shell/saved-scan-files.ts';
import { iconLocations } from './shell/icons.ts';
import { APP_ID } from './shell/identity.ts';
import { forwardEvents, registerIpcHandlers } from './shell/ipc.ts';
import { closeBeforeQuit } from './shell/lifecycle.ts';
import { logFile, setupLogging } from './shell/logging.ts';
import { setupNotifications } from './shell/notifications.ts';
import { setupDriveNotices } from './shell/drive-notice.ts';
import { electronPower } from './shell/power.ts';
import { hardenAllWebContents, hardenSession } from './shell/session-hardening.ts';
import { cliCommandOfLaunch, runCliInApp } from './shell/cli-mode.ts';
import { claimSingleInstance, type SingleInstance } from './shell/single-instance.ts';
import { launchedHidden, setupStartAtLogin } from './shell/start-at-login.ts';
import { shellLanguage, textsFor } from './shell/texts.ts';
import { trayIconVisible } from './shell/tray-host.ts';
import { createTray, type TrayController } from './shell/tray.ts';
import { createMainWindow, createWindowController } from './shell/window.ts';
import type { ScanOrigin } from '../shared/scans/record.ts';

// Built layout: dist-electron/{main.js,preload.cjs} next to dist/renderer/.
const here = import.meta.dirname;

async function start(instance: SingleInstance, log: Logger, secrets: SecretList): Promise<void> {
  const devServerUrl = app.isPackaged ? null : (process.env.VITE_DEV_SERVER_URL ?? null);
  const origins = appOrigins(devServerUrl);
  const csp = contentSecurityPolicy();
  hardenSession(session.defaultSession, csp, log);
  hardenAllWebContents(origins, log);
  serveAppProtocol(session.defaultSession, path.join(here, '../dist/renderer'), csp);

  // One SecretList for both logs: a key the core learns is scrubbed from main.log too.
  const core: Core = await createCore({ dataDir: app.getPath('userData'), logFile: logFile('core.log'), secrets, power: electronPower(), watchDrives: true });
  const icons = iconLocations({ packaged: app.isPackaged, resourcesPath: process.resourcesPath, appPath: app.getAppPath() });

  let tray: TrayController | null = null;
  const background = createBackgroundNotice({ trayIconVisible: () => trayIconVisible(), texts: async () => textsFor(await shellLanguage(core.settings)), onOpen: () => open(), iconPath: icons.appIcon, log });
  const windows = createWindowController(
    () => createMainWindow({ preloadPath: path.join(here, 'preload.cjs'), startUrl: devServerUrl ?? APP_START_URL, iconPath: icons.appIcon, devTools: !app.isPackaged }),
    () => tray?.keepsRunning() ?? false,
    () => background.windowHidden(),
  );
  const login = await setupStartAtLogin({ core, parent: () => windows.current(), log });

  const fileManagerMenus = createFileManagerMenuHandlers({ platform: process.platform, env: process.env, home: app.getPath('home'), execPath: process.execPath, defaultApp: Boolean(process.defaultApp), appPath: app.getAppPath() });
  const unregisterIpc = registerIpcHandlers({ core: login.core(core), files: createFileHandlers(() => windows.current()), fileManagerMenus, savedScanFiles: createSavedScanFilePickers(() => windows.current()), trustedWebContents: () => windows.webContents(), origins, log });
  const events = forwardEvents({ core, target: () => windows.webContents() });

  const open = () => {
    windows.show();
    tray?.acknowledge();
    tray?.refreshTexts();
  };
  const showScan = (id: string) => {
    open();
    events.showScan(id);
  };
  // Files opened with Verdict (first launch or a later one) are manual scans: for a remote
  // service that asks first they wait for the user's consent, so their scan is shown, where
  // the detail panel offers to send it.
  const submit = (paths: string[], origin: ScanOrigin) => {
    if (paths.length === 0) return;
    void core.submit(paths, { origin }).then((result) => {
      if (!result.ok) log.warn({ error: result.error, origin, count: paths.length }, 'could not queue paths from a launch');
      else if (result.value.ids[0] !== undefined) events.showScan(result.value.ids[0]);
    });
  };

  tray = createTray({ core, iconPath: icons.trayIcon, onOpen: open, onShowScan: showScan, onQuit: () => app.quit(), log });
  const stopNotifications = setupNotifications({ core, onShowScan: showScan, onOpen: open, log, iconPath: icons.appIcon });
  const stopDriveNotices = setupDriveNotices({ core, log, iconPath: icons.appIcon });
  const stopDiskFullNotice = setupDiskFullNotice({ dataDir: app.getPath('userData'), language: () => shellLanguage(core.settings), onOpen: open, iconPath: icons.appIcon, log });

  // A login start (--hidden) shows only the tray; a later launch brings the window.
  if (!launchedHidden(process.argv) || instance.initialPaths.length > 0) open();
  submit(instance.initialPaths, 'second-instance');
  instance.onHandover((paths) => {
    open();
    submit(paths, 'second-instance');
  });

  app.on('activate', open);
  // Closing hides the window while folders are watched (window.ts); a real close with nothing watched quits.
  app.on('window-all-closed', () => app.quit());
  closeBeforeQuit(
    async () => {
      unregisterIpc();
      login.dispose();
      events.dispose();
      stopNotifications();
      stopDriveNotices();
      stopDiskFullNotice();
      tray?.dispose();
      await core.close();
    },
    log,
    () => windows.setQuitting(),
  );
}

// `verdict scan|watch|service …` runs the command and exits: no window, and no single-instance lock.
const command = cliCommandOfLaunch();
if (command) runCliInApp(command);
else startApp();

function startApp(): void {
  registerAppScheme();
  app.enableSandbox();
  app.setAppUserModelId(APP_ID);
  const instance = claimSingleInstance();
  if (!instance) {
    app.quit();
    return;
  }
  void app.whenReady().then(async () => {
    const secrets = createSecretList();
    const log = setupLogging(secrets);
    log.info({ version: app.getVersion(), electron: process.versions.electron }, 'starting');
    try {
      await start(instance, log, secrets);
    } catch (error) {
      log.fatal({ err: error }, 'startup failed');
      showStartupError(error);
      app.exit(1);
    }
  });
}

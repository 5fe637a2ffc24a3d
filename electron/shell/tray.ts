// The tray icon and its menu, kept in step with the core's events through the
// pure reducer in tray-state.ts.
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { WatchedFolderStatus } from '../../shared/bridge/api.ts';
import type { Core } from '../core/core.ts';
import type { Logger } from '../logging/logger.ts';
import {
  acknowledgeThreats,
  initialTrayState,
  keepsRunningInTray,
  reduceTray,
  trayIcon,
  trayMenu,
  trayTooltip,
  withProtection,
  withSavedScans,
  withDriveOffers,
  withSchedules,
  withSavedNext,
  withWatch,
  type TrayAction,
  type TrayIcon,
  type TrayState,
} from './tray-state.ts';
import { shellLanguage, textsFor, type ShellTexts } from './texts.ts';

export interface TrayOptions {
  core: Pick<Core, 'onEvent' | 'watch' | 'settings'> & Partial<Pick<Core, 'protection' | 'schedules' | 'scanJobs' | 'savedScans' | 'savedScanChanges' | 'savedScanNext' | 'drives'>>;
  /** PNG file for each icon state. */
  iconPath(icon: TrayIcon): string;
  onOpen(): void;
  onShowScan(id: string): void;
  onQuit(): void;
  log: Logger;
}

export interface TrayController {
  /** Whether closing the window should keep the app running (folders are watched). */
  keepsRunning(): boolean;
  /** The user has seen the window: clear the threat state. */
  acknowledge(): void;
  /** Re-reads the language setting (it may have changed in the settings view). */
  refreshTexts(): void;
  dispose(): void;
}

// '&' marks a mnemonic in Windows menus; file names must show it literally.
const literal = (label: string) => label.replace(/&/g, '&&');

export function createTray(options: TrayOptions): TrayController {
  const { core, log } = options;
  let state: TrayState = initialTrayState;
  let texts: ShellTexts = textsFor('en');
  const tray = new Tray(nativeImage.createFromPath(options.iconPath('idle')));
  let shownIcon: TrayIcon = 'idle';
  let shownMenu = '';

  const run = (action: TrayAction) => {
    switch (action.type) {
      case 'open':
        return options.onOpen();
      case 'show-scan':
        return options.onShowScan(action.id);
      case 'quit':
        return options.onQuit();
      case 'start-job':
        // Its progress is in the window's job row, its end a notification. One of its kind is
        // already running: the window shows it.
        void core.scanJobs?.start({ kind: action.kind }).then((result) => {
          if (result.ok) return;
          log.warn({ error: result.error, kind: action.kind }, 'could not start a scan from the tray');
          if (result.error.code === 'job_running') options.onOpen();
        });
        return;
      case 'run-saved':
        // As a quick or full scan: the window's job row shows it; a problem opens the window.
        void core.savedScans?.run(action.name).then((result) => {
          if (result.ok) return;
          log.warn({ error: result.error }, 'could not start a saved scan from the tray');
          options.onOpen();
        });
        return;
      case 'scan-drive':
        // As from its notice: the window's job row shows the scan, its end is a notification.
        void core.drives?.scan(action.mountPoint).catch((error: unknown) => log.warn({ err: error }, 'could not scan a drive from the tray'));
        return;
      case 'set-paused':
        void core.watch.setAllPaused(action.paused).then((result) => {
          if (result.ok) update(withWatch(state, result.value));
          else log.warn({ error: result.error }, 'could not change watching from the tray');
        });
    }
  };

  const render = () => {
    const icon = trayIcon(state);
    if (icon !== shownIcon) {
      tray.setImage(nativeImage.createFromPath(options.iconPath(icon)));
      shownIcon = icon;
    }
    tray.setToolTip(trayTooltip(state, texts));
    const model = trayMenu(state, texts);
    const key = JSON.stringify(model);
    if (key === shownMenu) return;
    shownMenu = key;
    const template: MenuItemConstructorOptions[] = model.map((item) =>
      item.type === 'separator'
        ? { type: 'separator' }
        : { label: literal(item.label), enabled: item.enabled, click: item.action ? () => run(item.action as TrayAction) : undefined },
    );
    tray.setContextMenu(Menu.buildFromTemplate(template));
  };

  const update = (next: TrayState) => {
    if (next === state) return;
    state = next;
    render();
  };

  render();
  // Linux shows the menu on click; elsewhere a click opens the window.
  tray.on('click', () => options.onOpen());
  const stopEvents = core.onEvent((event) => update(reduceTray(state, event)));
  const stopWatch = core.watch.onChange((folders: WatchedFolderStatus[]) => update(withWatch(state, folders)));
  void core.watch.list().then((result) => result.ok && update(withWatch(state, result.value)));
  const stopProtection = core.protection?.onChange((view) => update(withProtection(state, view)));
  void core.protection?.status().then((result) => result.ok && update(withProtection(state, result.value)));
  const stopSchedules = core.schedules?.onChange((view) => update(withSchedules(state, view)));
  if (core.schedules) update(withSchedules(state, core.schedules.view()));
  const stopSaved = core.savedScanChanges?.onChange((scans) => update(withSavedScans(state, scans.map((scan) => scan.name))));
  const stopSavedNext = core.savedScanNext?.onNext((next) => update(withSavedNext(state, next)));
  if (core.savedScanNext) update(withSavedNext(state, core.savedScanNext.next()));
  void core.savedScans?.list().then((result) => result.ok && update(withSavedScans(state, result.value.map((scan) => scan.name))));
  const driveOffers = () => update(withDriveOffers(state, core.drives?.offers().map(({ drive }) => drive) ?? []));
  const stopDrives = core.drives?.onEvent(driveOffers);
  const refreshTexts = () =>
    void shellLanguage(core.settings)
      .then((language) => {
        if (textsFor(language) === texts) return;
        texts = textsFor(language);
        render();
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not read the language for the tray'));
  refreshTexts();

  return {
    keepsRunning: () => keepsRunningInTray(state),
    acknowledge: () => update(acknowledgeThreats(state)),
    refreshTexts,
    dispose() {
      stopEvents();
      stopWatch();
      stopProtection?.();
      stopSchedules?.();
      stopSaved?.();
      stopSavedNext?.();
      stopDrives?.();
      tray.destroy();
    },
  };
}

// "Start Verdict when I log in (in the background)": an XDG autostart entry on Linux,
// the OS login item on macOS and Windows; kept in step with the setting, and offered
// once, when the first folder is watched (watched folders protect only while Verdict runs).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import type { Settings, SettingsPatch } from '../../shared/settings/settings.ts';
import type { Result } from '../../shared/result.ts';
import type { Core } from '../core/core.ts';
import type { Logger } from '../logging/logger.ts';
import { autostartEntry, autostartFile, HIDDEN_SWITCH, launchTarget } from './autostart-entry.ts';
import { shellLanguage, textsFor } from './texts.ts';

export interface LoginItemTarget {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  execPath: string;
}

const thisProcess = (): LoginItemTarget => ({ platform: process.platform, env: process.env, home: os.homedir(), execPath: process.execPath });

/** Writes or removes the login entry. */
export async function applyStartAtLogin(enabled: boolean, comment: string, target: LoginItemTarget = thisProcess()): Promise<void> {
  if (target.platform === 'linux') {
    const file = autostartFile(target.env, target.home);
    if (!enabled) return rm(file, { force: true });
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, autostartEntry(launchTarget(target.env, target.execPath), { name: app.getName(), comment }), { mode: 0o644 });
    return;
  }
  // macOS starts login items without arguments: launchedHidden() asks wasOpenedAtLogin instead.
  app.setLoginItemSettings(target.platform === 'darwin' ? { openAtLogin: enabled } : { openAtLogin: enabled, args: [HIDDEN_SWITCH] });
}

/** Whether this launch is a login start: only the tray, no window. */
export function launchedHidden(argv: readonly string[], platform: NodeJS.Platform = process.platform): boolean {
  if (argv.includes(HIDDEN_SWITCH)) return true;
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
}

export interface StartAtLoginOptions {
  core: Pick<Core, 'settings' | 'watch'>;
  /** The window the offer belongs to, when there is one. */
  parent(): BrowserWindow | null;
  log: Logger;
  target?: LoginItemTarget;
}

export interface StartAtLogin {
  /** The core as IPC should see it: a settings change that turns the option on or off applies it. */
  core<C extends Pick<Core, 'settings'>>(core: C): C;
  dispose(): void;
}

export async function setupStartAtLogin(options: StartAtLoginOptions): Promise<StartAtLogin> {
  const { core, log } = options;
  const texts = async () => textsFor(await shellLanguage(core.settings));
  const apply = async (enabled: boolean) => {
    try {
      await applyStartAtLogin(enabled, (await texts()).loginEntryComment, options.target);
    } catch (error) {
      log.warn({ err: error, enabled }, 'could not change the login entry');
    }
  };
  const afterUpdate = async (before: Settings | null, result: Result<Settings>) => {
    if (result.ok && result.value.startAtLogin !== before?.startAtLogin) await apply(result.value.startAtLogin);
  };
  const update = async (patch: SettingsPatch): Promise<void> => {
    const before = await core.settings.get();
    await afterUpdate(before.ok ? before.value : null, await core.settings.update(patch));
  };

  // On every start: the entry names this executable (an AppImage may have moved since).
  const initial = await core.settings.get();
  if (initial.ok && initial.value.startAtLogin) await apply(true);

  const offer = async () => {
    const current = await core.settings.get();
    if (!current.ok || current.value.startAtLogin || current.value.startAtLoginOffered) return;
    const { loginOffer } = await texts();
    const box = { type: 'question' as const, message: loginOffer.message, detail: loginOffer.detail, buttons: [loginOffer.accept, loginOffer.decline], defaultId: 0, cancelId: 1, noLink: true };
    const parent = options.parent();
    const { response } = await (parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box));
    await update({ startAtLogin: response === 0, startAtLoginOffered: true });
  };

  // The first folder: watched folders going from none to some while Verdict runs.
  const listed = await core.watch.list();
  let watchedBefore = listed.ok ? listed.value.length : 0;
  const stopWatching = core.watch.onChange((folders) => {
    const first = watchedBefore === 0 && folders.length > 0;
    watchedBefore = folders.length;
    if (first) void offer().catch((error: unknown) => log.warn({ err: error }, 'could not offer to start at login'));
  });

  return {
    core(target) {
      const settings = target.settings;
      const wrapped: typeof settings = {
        ...settings,
        update: async (patch) => {
          const before = await settings.get();
          const result = await settings.update(patch);
          await afterUpdate(before.ok ? before.value : null, result);
          return result;
        },
      };
      return { ...target, settings: wrapped };
    },
    dispose: stopWatching,
  };
}

// Each entry's command line, run the way its file manager runs it, with a file and a folder
// whose names hold spaces, quotes, newlines and non-ASCII: the stand-in Verdict is started, and
// Verdict's open-paths entry (argv-paths.ts pathsFromLaunch, what a second launch hands over)
// reads exactly those paths from its arguments. Nautilus runs the script itself; Dolphin's Exec
// goes through the Desktop Entry Specification's parsing (and GIO's, for a second opinion);
// Nemo and Thunar through the real GLib their code uses (glib-launch.py).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dolphinServiceMenu } from '../../../electron/file-manager-menus/dolphin.ts';
import { nautilusScript } from '../../../electron/file-manager-menus/nautilus.ts';
import { nemoAction } from '../../../electron/file-manager-menus/nemo.ts';
import { THUNAR_UNIQUE_ID, thunarAction, withThunarAction } from '../../../electron/file-manager-menus/thunar.ts';
import { awkwardSelection, desktopKey, execArgv, glib, pathsReached, writeStandIn } from './menu-fixture.ts';

let work: string;
let out: string;
let selection: string[];
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-menus-'));
  out = path.join(work, 'argv');
  const root = path.join(work, 'Selected here');
  fs.mkdirSync(root);
  selection = awkwardSelection(root);
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

interface Install {
  name: string;
  command(): string[];
  defaultApp: boolean;
}
// The AppImage (or installed executable) in a folder whose name needs quoting, and a checkout
// (Electron started with the app folder: Verdict skips two leading arguments).
const installs: Install[] = [
  { name: 'an AppImage', command: () => [writeStandIn(path.join(work, `Verdict's "Apps" $PATH \\ é`, 'Verdict Stand-in.AppImage'), out)], defaultApp: false },
  { name: 'a checkout', command: () => [writeStandIn(path.join(work, 'node_modules/electron/dist/electron'), out), path.join(work, 'my checkout')], defaultApp: true },
];

const run = (argv: string[], cwd?: string) => execFileSync(argv[0] ?? '', argv.slice(1), cwd ? { cwd } : {});

describe.each(installs)('from $name', ({ command, defaultApp }) => {
  it('GNOME Files: the script, started in the open folder with the names as Nautilus passes them, hands over exactly the selection', () => {
    const script = path.join(work, 'Scan with Verdict');
    fs.writeFileSync(script, nautilusScript(command()), { mode: 0o755 });
    // Nautilus passes names relative to the open folder, or absolute ones (search results).
    const folder = path.dirname(selection[0] ?? '');
    run([script, ...selection.map((entry) => path.basename(entry))], folder);
    expect(pathsReached(out, defaultApp)).toEqual(selection);
    run([script, ...selection], os.tmpdir());
    expect(pathsReached(out, defaultApp)).toEqual(selection);
  });

  it('Dolphin: the action\'s Exec, parsed per the Desktop Entry Specification with %F, hands over exactly the selection', () => {
    const exec = desktopKey(dolphinServiceMenu(command()), 'Desktop Action scanWithVerdict', 'Exec');
    run(execArgv(exec, selection));
    expect(pathsReached(out, defaultApp)).toEqual(selection);
  });

  it('Dolphin\'s entry launched by GIO with the selection hands over exactly the selection', () => {
    const file = path.join(work, 'verdict-scan.desktop');
    fs.writeFileSync(file, dolphinServiceMenu(command()));
    const answer = glib<{ launched: boolean; actions: string[] }>({ mode: 'desktop', file, paths: selection, out });
    expect(answer).toEqual({ launched: true, actions: ['scanWithVerdict'] });
    expect(pathsReached(out, defaultApp)).toEqual(selection);
  });

  it('Nemo: the action\'s Exec with %U, expanded and split as Nemo does, hands over exactly the selection', () => {
    const file = path.join(work, 'verdict-scan.nemo_action');
    fs.writeFileSync(file, nemoAction(command()));
    const answer = glib<{ argv: string[] }>({ mode: 'nemo', file, paths: selection });
    run(answer.argv);
    expect(pathsReached(out, defaultApp)).toEqual(selection);
  });

  it('Thunar: the action\'s command with %F, expanded and split as Thunar does, hands over exactly the selection', () => {
    const file = path.join(work, 'uca.xml');
    fs.writeFileSync(file, withThunarAction(null, thunarAction(command(), 'en')));
    const answer = glib<{ argv: string[] }>({ mode: 'thunar', file, paths: selection, uniqueId: THUNAR_UNIQUE_ID });
    run(answer.argv);
    expect(pathsReached(out, defaultApp)).toEqual(selection);
  });
});

describe('a Verdict whose path holds a %', () => {
  const percent = () => [writeStandIn(path.join(work, '100% Verdict', 'verdict'), out)];

  it('is started by Dolphin, Thunar and GNOME Files (% is escaped where the format needs it)', () => {
    run(execArgv(desktopKey(dolphinServiceMenu(percent()), 'Desktop Action scanWithVerdict', 'Exec'), selection));
    expect(pathsReached(out)).toEqual(selection);
    const file = path.join(work, 'uca.xml');
    fs.writeFileSync(file, withThunarAction(null, thunarAction(percent(), 'de')));
    run(glib<{ argv: string[] }>({ mode: 'thunar', file, paths: selection, uniqueId: THUNAR_UNIQUE_ID }).argv);
    expect(pathsReached(out)).toEqual(selection);
    const script = path.join(work, 'script');
    fs.writeFileSync(script, nautilusScript(percent()), { mode: 0o755 });
    run([script, ...selection]);
    expect(pathsReached(out)).toEqual(selection);
  });
});

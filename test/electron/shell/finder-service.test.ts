// "Scan with Verdict" in Finder (issue 29 §1): a Quick Action shipped beside the app in the disk
// image (electron-builder.yml dmg.contents). Its service entry (NSServices) names the menu item in
// English and German, takes files and folders, and shows in Finder; its shell step hands every
// selected path to Verdict with `open -b APP_ID "$@"`, which reaches the running app as `open-file`
// events, the path "Open With" uses. Checked by parsing the files (no macOS here), running the
// step's command with a stand-in `open`, and feeding what it got to the app's handover.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { SCAN_LABEL } from '../../../electron/file-manager-menus/menu-file.ts';
import { APP_ID } from '../../../electron/shell/identity.ts';
import { claimSingleInstance } from '../../../electron/shell/single-instance.ts';
import { app, FakeEvent, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
beforeEach(() => resetFakeElectron());

const root = path.join(import.meta.dirname, '../../..');
const WORKFLOW = 'build/mac/Scan with Verdict.workflow';
const contents = path.join(root, WORKFLOW, 'Contents');
// electron-builder's own plist parser (it writes the app's Info.plist with it).
const plist = createRequire(path.join(root, 'node_modules/electron-builder/package.json'))('plist') as { parse(xml: string): unknown };
const readPlist = (file: string) => plist.parse(readFileSync(path.join(contents, file), 'utf8')) as Record<string, unknown>;

interface ServiceEntry {
  NSMenuItem: { default: string };
  NSMessage: string;
  NSSendFileTypes: string[];
  NSRequiredContext: { NSApplicationIdentifier: string };
}
interface ShellAction {
  action: { BundleIdentifier: string; ActionParameters: { COMMAND_STRING: string; inputMethod: number; shell: string } };
}

/** A .strings file's `"key" = "value";` pairs. */
function strings(file: string): Record<string, string> {
  const text = readFileSync(path.join(contents, file), 'utf8');
  return Object.fromEntries([...text.matchAll(/^"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)";$/gmu)].map((match) => [match[1], match[2]]));
}

describe('the Finder service', () => {
  it('ships in the disk image beside the app and the Applications link', () => {
    const config = YAML.parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { dmg: { contents: Array<{ type?: string; path?: string }> } };
    expect(config.dmg.contents).toContainEqual(expect.objectContaining({ type: 'file', path: WORKFLOW }));
    expect(config.dmg.contents).toContainEqual(expect.objectContaining({ type: 'link', path: '/Applications' }));
    // The app itself (an entry without a path) stays in the image.
    expect(config.dmg.contents.some((entry) => entry.path === undefined)).toBe(true);
  });

  it('is a Finder service for files and folders, named in English and German', () => {
    const info = readPlist('Info.plist');
    const [service, ...others] = info.NSServices as ServiceEntry[];
    expect(others).toEqual([]);
    expect(service).toEqual({
      NSMenuItem: { default: SCAN_LABEL.en },
      // Automator's runner provides this message: the Quick Action's steps run.
      NSMessage: 'runWorkflowAsService',
      // public.item: every file and folder (a service without NSRequiredContext is listed nowhere).
      NSSendFileTypes: ['public.item'],
      NSRequiredContext: { NSApplicationIdentifier: 'com.apple.finder' },
    });
    expect(info.CFBundleDevelopmentRegion).toBe('en');
    expect(strings('Resources/en.lproj/ServicesMenu.strings')).toEqual({ [SCAN_LABEL.en]: SCAN_LABEL.en });
    expect(strings('Resources/de.lproj/ServicesMenu.strings')).toEqual({ [SCAN_LABEL.en]: SCAN_LABEL.de });
  });

  it('is a Quick Action whose one step opens the selection with Verdict, each path an argument', () => {
    const document = readPlist('document.wflow');
    expect(document.workflowMetaData).toMatchObject({ workflowTypeIdentifier: 'com.apple.Automator.servicesMenu', serviceInputTypeIdentifier: 'com.apple.Automator.fileSystemObject', serviceApplicationBundleID: 'com.apple.finder' });
    const actions = document.actions as ShellAction[];
    expect(actions).toHaveLength(1);
    expect(actions[0]!.action.BundleIdentifier).toBe('com.apple.RunShellScript');
    // inputMethod 1: the selection comes as arguments ("$@"), never through a shell's word splitting.
    expect(actions[0]!.action.ActionParameters).toMatchObject({ COMMAND_STRING: `open -b ${APP_ID} "$@"`, inputMethod: 1, shell: '/bin/sh' });
  });

  describe('what it hands to the running app', () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'verdict-finder-service-'));
    afterAll(() => rmSync(bin, { recursive: true, force: true }));
    // A stand-in for macOS `open`: writes its arguments, each ended by NUL.
    writeFileSync(path.join(bin, 'open'), '#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done\n');
    chmodSync(path.join(bin, 'open'), 0o755);
    const command = (readPlist('document.wflow').actions as ShellAction[])[0]!.action.ActionParameters.COMMAND_STRING;
    /** Runs the step as Automator does (`/bin/sh -c COMMAND sh PATH…`) and returns what `open` was given. */
    const run = (paths: string[]) =>
      execFileSync('/bin/sh', ['-c', command, 'sh', ...paths], { env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } })
        .toString('utf8')
        .split('\0')
        .slice(0, -1);
    // Finder hands absolute paths: any characters but NUL, spaces, quotes, newlines and non-ASCII included.
    const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((text) => !text.includes('\0') && !text.includes('/'));
    const finderPath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
    const special = ['/Users/ana/My Files/report "final".pdf', "/Users/ana/it's\nnew", '/Users/ana/Überweisung €.zip', '/Volumes/USB/-rf'];

    it('gives `open` exactly the selected paths, and the app gets each as opened (open-file)', () => {
      fc.assert(
        fc.property(fc.array(finderPath, { minLength: 1, maxLength: 4 }), (selected) => {
          expect(run(selected)).toEqual(['-b', APP_ID, ...selected]);
        }),
        { numRuns: 40, examples: [[special]] },
      );
      const instance = claimSingleInstance()!;
      const received: string[][] = [];
      instance.onHandover((paths) => received.push(paths));
      // macOS sends the files `open` names to the running app: Electron tells each as open-file.
      for (const file of run(special).slice(2)) app.emit('open-file', new FakeEvent(), file);
      expect(received).toEqual(special.map((file) => [file]));
    });
  });
});

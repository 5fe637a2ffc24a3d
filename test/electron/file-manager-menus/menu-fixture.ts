// Shared by the file-manager-menus tests: a stand-in Verdict that records the arguments it was
// started with, file and folder names that break naive quoting, the Desktop Entry
// Specification's Exec parsing, the real GLib (python3-gi) and desktop-file-validate.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { pathsFromLaunch } from '../../../electron/shell/argv-paths.ts';

/** A file and a folder whose names hold spaces, both quotes, $, a backslash, %, newlines, a leading dash and non-ASCII. */
export function awkwardSelection(root: string): string[] {
  const file = path.join(root, `a 'single' "double" $HOME \\back\nnew line ü 100%.exe`);
  const folder = path.join(root, `-folder with spaces\nand é ß 日本`);
  fs.writeFileSync(file, 'x');
  fs.mkdirSync(folder);
  return [file, folder];
}

/**
 * A stand-in Verdict: a shell script that writes its $0, its arguments and its working folder,
 * NUL-separated, to `out` (renamed into place, so a reader never sees half of it).
 */
export function writeStandIn(file: string, out: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const quotedOut = `'${out.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(file, `#!/bin/sh\n{ printf '%s\\0' "$PWD" "$0" "$@"; } > ${quotedOut}.tmp && mv ${quotedOut}.tmp ${quotedOut}\n`, { mode: 0o755 });
  return file;
}

/** What the stand-in recorded, as the launch data a second instance sends (single-instance.ts). */
export function recordedLaunch(out: string): { cwd: string; argv: string[] } {
  const [cwd, ...argv] = fs.readFileSync(out, 'utf8').split('\0').slice(0, -1);
  return { cwd: cwd ?? '', argv };
}

/** The paths Verdict takes from what the stand-in recorded: the open-paths entry of a launch. */
export function pathsReached(out: string, defaultApp = false): string[] {
  const { cwd, argv } = recordedLaunch(out);
  return pathsFromLaunch({ argv, cwd, defaultApp });
}

/** A Desktop Entry string value unescaped (\s \n \t \r \\). */
function unescapeString(value: string): string {
  return value.replace(/\\([sntr\\])/g, (_all, code: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' })[code] ?? code);
}

/**
 * The Desktop Entry Specification's Exec key, as a launcher reads it: the string value
 * unescaped, split into arguments at unquoted spaces, double-quoted arguments unquoted (a
 * backslash escapes " ` $ \ there), then field codes expanded: %F as one argument per path,
 * %% as %. No shell is involved.
 */
export function execArgv(exec: string, paths: readonly string[]): string[] {
  const value = unescapeString(exec);
  const args: Array<{ text: string; quoted: boolean }> = [];
  let index = 0;
  while (index < value.length) {
    if (value[index] === ' ') {
      index++;
      continue;
    }
    let text = '';
    let quoted = false;
    if (value[index] === '"') {
      quoted = true;
      index++;
      while (index < value.length && value[index] !== '"') {
        if (value[index] === '\\' && '"`$\\'.includes(value[index + 1] ?? '')) index++;
        text += value[index++];
      }
      expect(value[index], `unterminated quote in ${exec}`).toBe('"');
      index++;
    } else {
      while (index < value.length && value[index] !== ' ') {
        expect('"\'\\><~|&;$*?#()`'.includes(value[index] ?? ''), `reserved character unquoted in ${exec}`).toBe(false);
        text += value[index++];
      }
    }
    args.push({ text, quoted });
  }
  return args.flatMap(({ text, quoted }) => (!quoted && text === '%F' ? [...paths] : [text.replace(/%%/g, '%')]));
}

/** The value of `key` in a .desktop group. */
export function desktopKey(text: string, group: string, key: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`[${group}]`);
  expect(start, `group ${group}`).toBeGreaterThanOrEqual(0);
  const line = lines.slice(start + 1).find((candidate) => candidate.startsWith(`${key}=`) || candidate.startsWith('['));
  expect(line?.startsWith(`${key}=`), `${key} in ${group}`).toBe(true);
  return (line ?? '').slice(key.length + 1);
}

/** Debian's Python, which has python3-gi (a Python earlier on PATH may not). */
const PYTHON = '/usr/bin/python3';

export function glib<T>(request: Record<string, unknown>): T {
  const result = spawnSync(PYTHON, [path.join(import.meta.dirname, 'glib-launch.py')], { input: JSON.stringify(request), encoding: 'utf8', timeout: 20_000 });
  expect(result.error, 'Debian\'s python3 with python3-gi (.ci/setup installs it) must be there').toBeUndefined();
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

export function validateDesktopFile(file: string): string {
  const result = spawnSync('desktop-file-validate', [file], { encoding: 'utf8' });
  // CI installs desktop-file-utils (.ci/setup); a missing validator is a failure, not a skip.
  expect(result.error, 'desktop-file-validate (Debian package desktop-file-utils) must be installed').toBeUndefined();
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

/** Every file and folder under `root`, relative, with its text for files: a snapshot to compare. */
export function treeOf(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      const key = path.relative(root, full);
      if (entry.isDirectory()) {
        entries[`${key}/`] = '';
        walk(full);
      } else entries[key] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return entries;
}

// The .deb's system-wide entries: the copies in build/file-manager/ are what the generators
// write for the installed executable, electron-builder.yml installs each where its file manager
// looks, each passes its format's reader, and the GNOME Files extension starts Verdict with
// exactly the selection. UPDATE_SYSTEM_MENUS=1 rewrites the copies from the generators.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEB_EXECUTABLE, systemMenuFiles } from '../../../electron/file-manager-menus/system-menus.ts';
import { awkwardSelection, glib, pathsReached, validateDesktopFile, writeStandIn } from './menu-fixture.ts';

const root = path.join(import.meta.dirname, '../../..');
const files = systemMenuFiles();

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-system-menus-'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the .deb\'s file-manager entries', () => {
  it.each(files.filter((file) => file.content !== null))('$source is what the generator writes', ({ source, content }) => {
    if (process.env.UPDATE_SYSTEM_MENUS === '1') fs.writeFileSync(path.join(root, source), content ?? '');
    expect(fs.readFileSync(path.join(root, source), 'utf8')).toBe(content);
  });

  it('are installed by the deb target where Dolphin, Nemo and GNOME Files look for them', () => {
    const config = YAML.parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { deb: { fpm: string[] } };
    const mappings = config.deb.fpm.filter((arg) => !arg.startsWith('-'));
    expect(mappings).toEqual(files.map((file) => `${file.source}=${file.destination}`));
    expect(config.deb.fpm).toContain('--deb-suggests=python3-nautilus');
  });

  it('pass desktop-file-validate (Dolphin) and GLib\'s key file reader (Nemo)', () => {
    validateDesktopFile(path.join(root, 'build/file-manager/verdict-scan.desktop'));
    const nemo = glib<{ fields: Record<string, string> }>({ mode: 'nemo', file: path.join(root, 'build/file-manager/verdict-scan.nemo_action'), paths: ['/x'] });
    expect(nemo.fields.Exec).toBe(`'${DEB_EXECUTABLE}' %U`);
  });

  it('GNOME Files\' extension offers one entry and starts Verdict with exactly the selection', () => {
    const out = path.join(work, 'argv');
    const standIn = writeStandIn(path.join(work, 'bin', 'verdict'), out);
    const selected = path.join(work, 'Selected');
    fs.mkdirSync(selected);
    const paths = awkwardSelection(selected);
    const extension = path.join(root, 'build/file-manager/verdict-scan.py');
    const result = spawnSync('/usr/bin/python3', [path.join(import.meta.dirname, 'nautilus-extension.py')], {
      input: JSON.stringify({ extension, standIn, paths, out }),
      encoding: 'utf8',
      env: { ...process.env, LANGUAGE: 'de_DE' },
      timeout: 20_000,
    });
    expect(result.status, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { executable: string; items: Array<Record<string, string>>; olderStyleItems: number; signal: string };
    expect(answer).toMatchObject({ executable: DEB_EXECUTABLE, olderStyleItems: 1, signal: 'activate' });
    expect(answer.items).toEqual([expect.objectContaining({ label: 'Mit Verdict prüfen', icon: 'verdict' })]);
    expect(pathsReached(out)).toEqual(paths);
  });
});

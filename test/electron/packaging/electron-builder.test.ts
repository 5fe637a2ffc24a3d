// Runs electron-builder for Linux on the built app with a stand-in Electron distribution:
// the `dir` target for real (app.asar, unpacked keytar, fuses flipped in the "binary"),
// and the AppImage and deb targets up to their generated .desktop entries, which
// electron-builder hands to `effectiveOptionComputed` before it would fetch appimagetool
// or fpm. Any download attempt goes to a closed loopback port and fails the build.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ElectronBuilder from 'electron-builder';
import YAML from 'yaml';
import { buildApp, projectRoot, type BuiltApp } from './build-app.ts';
import { writeStandInElectronDist } from './stand-in-electron-dist.ts';

const require = createRequire(path.join(projectRoot, 'node_modules/app-builder-lib/package.json'));
const builder = require('electron-builder') as typeof ElectronBuilder;
const asar = require('@electron/asar') as {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  statFile(archive: string, file: string): { unpacked?: boolean };
  extractFile(archive: string, file: string): Buffer;
};
const fuses = require('@electron/fuses') as { getCurrentFuseWire(binary: string): Promise<Record<number, number>> };

const CLOSED = 'http://127.0.0.1:9/';
const OFFLINE_ENV = { ELECTRON_MIRROR: CLOSED, ELECTRON_BUILDER_BINARIES_MIRROR: CLOSED, NPM_CONFIG_ELECTRON_MIRROR: CLOSED, HTTP_PROXY: CLOSED, HTTPS_PROXY: CLOSED, NO_PROXY: '' };

let app: BuiltApp;
let work: string;
const desktopEntries = new Map<string, string>();
let debAfterInstall = '';

beforeAll(async () => {
  app = await buildApp();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-builder-'));
  writeStandInElectronDist(path.join(work, 'electron-dist'));
  const config = YAML.parse(fs.readFileSync(path.join(projectRoot, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
  const saved = { ...process.env };
  Object.assign(process.env, OFFLINE_ENV);
  try {
    await builder.build({
      projectDir: app.dir,
      targets: builder.Platform.LINUX.createTarget(['dir', 'AppImage', 'deb'], builder.Arch.x64),
      publish: 'never',
      // No rebuild of keytar against Electron's headers (a download); the package still carries its .node.
      config: { ...config, electronDist: path.join(work, 'electron-dist'), npmRebuild: false, directories: { output: path.join(work, 'release'), buildResources: 'build' } },
      effectiveOptionComputed: async (options: unknown) => {
        // AppImage: { desktop, desktopFileName }; deb: [fpm arguments, path of the .desktop file].
        if (Array.isArray(options)) {
          const [fpmArgs, desktopFile] = options as [string[], string];
          desktopEntries.set('deb', fs.readFileSync(desktopFile, 'utf8'));
          debAfterInstall = fs.readFileSync(fpmArgs[fpmArgs.indexOf('--after-install') + 1]!, 'utf8');
        } else desktopEntries.set('AppImage', (options as { desktop: string }).desktop);
        return true;
      },
    });
  } finally {
    process.env = saved;
  }
}, 240_000);
afterAll(() => {
  app?.remove();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const unpacked = () => path.join(work, 'release/linux-unpacked');
const archive = () => path.join(unpacked(), 'resources/app.asar');

describe('electron-builder --linux dir with a stand-in Electron', () => {
  it('packs the built app, package.json, keytar and the fd-passing addon only', () => {
    const files = asar.listPackage(archive(), { isPack: false }).map((entry) => entry.replace(/^\//, ''));
    const leaves = files.filter((entry) => !files.some((other) => other.startsWith(`${entry}/`)));
    for (const leaf of leaves) {
      expect(leaf, leaf).toMatch(/^(dist\/renderer\/|dist-electron\/|package\.json$|node_modules\/keytar\/(package\.json|lib\/keytar\.js|build\/Release\/keytar\.node)$|node_modules\/@verdict\/fdpass\/(package\.json|index\.cjs|build\/Release\/fdpass\.node)$)/);
    }
    expect(leaves).toEqual(expect.arrayContaining(['node_modules/@verdict/fdpass/package.json', 'node_modules/@verdict/fdpass/index.cjs', 'node_modules/@verdict/fdpass/build/Release/fdpass.node']));
    expect(leaves).toEqual(expect.arrayContaining(['package.json', 'dist-electron/main.js', 'dist-electron/service-thread.js', 'dist-electron/preload.cjs', 'dist/renderer/index.html']));
    // No sources, maps or test files (a test folder or `*.test.*`; the engine's self-test is a feature, bundled).
    expect(leaves.filter((leaf) => /\.(ts|tsx|map)$/.test(leaf) || /(^|\/)(test|tests|__tests__)\//.test(leaf) || /\.test\./.test(leaf))).toEqual([]);
  });

  it.each(['keytar/build/Release/keytar.node', '@verdict/fdpass/build/Release/fdpass.node'])('leaves the native addon %s unpacked, next to the archive', (addon) => {
    expect(asar.statFile(archive(), `node_modules/${addon}`).unpacked).toBe(true);
    expect(fs.existsSync(path.join(unpacked(), `resources/app.asar.unpacked/node_modules/${addon}`))).toBe(true);
  });

  it('writes package.json with the entry point and the desktop name, without devDependencies', () => {
    const pkg = JSON.parse(asar.extractFile(archive(), 'package.json').toString('utf8')) as Record<string, unknown>;
    expect(pkg.main).toBe('dist-electron/main.js');
    expect(pkg.desktopName).toBe('verdict.desktop');
    expect(pkg).not.toHaveProperty('devDependencies');
  });

  it('names the executable verdict and ships the tray icons beside the archive', () => {
    expect(fs.statSync(path.join(unpacked(), 'verdict')).mode & 0o111).not.toBe(0);
    for (const state of ['idle', 'scanning', 'threat']) expect(fs.existsSync(path.join(unpacked(), `resources/tray/tray-${state}.png`)), state).toBe(true);
    expect(fs.existsSync(path.join(unpacked(), 'resources/icon.png'))).toBe(true);
  });

  it('flips the fuses in the executable: RunAsNode off, asar-only loading on', async () => {
    const wire = await fuses.getCurrentFuseWire(path.join(unpacked(), 'verdict'));
    const OFF = '0'.charCodeAt(0);
    const ON = '1'.charCodeAt(0);
    // Indexes of FuseV1Options: RunAsNode 0, EnableCookieEncryption 1, EnableNodeOptionsEnvironmentVariable 2,
    // EnableNodeCliInspectArguments 3, EnableEmbeddedAsarIntegrityValidation 4, OnlyLoadAppFromAsar 5,
    // LoadBrowserProcessSpecificV8Snapshot 6, GrantFileProtocolExtraPrivileges 7.
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((index) => wire[index])).toEqual([OFF, ON, OFF, OFF, ON, ON, OFF, OFF]);
  });
});

describe('the generated .desktop entries', () => {
  it('are generated for the AppImage and the deb', () => {
    expect([...desktopEntries.keys()].sort()).toEqual(['AppImage', 'deb']);
  });

  it.each(['AppImage', 'deb'])('%s: desktop-file-validate accepts it without a warning', (target) => {
    const file = path.join(work, `${target}-verdict.desktop`);
    fs.writeFileSync(file, desktopEntries.get(target) ?? '');
    const result = spawnSync('desktop-file-validate', [file], { encoding: 'utf8' });
    // CI installs desktop-file-utils (.ci/run); a missing validator is a failure, not a skip.
    expect(result.error, 'desktop-file-validate (Debian package desktop-file-utils) must be installed').toBeUndefined();
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  it.each(['AppImage', 'deb'])('%s: one field code, a main category, and "Open with" for any file or folder', (target) => {
    const entry = Object.fromEntries((desktopEntries.get(target) ?? '').split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    expect(entry.Exec?.match(/%[fFuU]/g)).toHaveLength(1);
    expect(entry.Exec).not.toContain('--no-sandbox');
    expect(entry.Exec).toMatch(target === 'deb' ? /^\/opt\/Verdict\/verdict %F$/ : /^AppRun %U$/);
    expect(entry.Categories).toBe('System;Security;');
    expect(entry.MimeType).toBe('application/octet-stream;inode/directory;');
    expect(entry.StartupWMClass).toBe('verdict');
  });
});

describe('the .deb', () => {
  it('puts verdict on PATH: its after-install script links /usr/bin/verdict to the executable', () => {
    expect(debAfterInstall).toContain("update-alternatives --install '/usr/bin/verdict' 'verdict' '/opt/Verdict/verdict'");
    expect(debAfterInstall).toContain("ln -sf '/opt/Verdict/verdict' '/usr/bin/verdict'");
  });
});

describe('desktop-file-validate itself', () => {
  it('rejects the AppImage entry electron-builder wrote before (two field codes) and flags Security without System', () => {
    const file = path.join(work, 'old.desktop');
    fs.writeFileSync(file, '[Desktop Entry]\nName=Verdict\nExec=AppRun %F %U\nTerminal=false\nType=Application\nIcon=verdict\nCategories=Utility;Security;\n');
    const output = execFileSyncSafe('desktop-file-validate', [file]);
    expect(output).toMatch(/error: value "AppRun %F %U" for key "Exec".*may contain at most one/);
    expect(output).toMatch(/"Security" in key "Categories".*another category among.*System/);
  });
});

function execFileSyncSafe(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
}

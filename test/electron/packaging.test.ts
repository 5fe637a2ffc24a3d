// electron-builder cannot run here (it downloads Electron), so its configuration
// is checked by reading it: targets, identity, fuses, what goes into the package,
// and electron-builder's own schema validation.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { APP_ID, PRODUCT_NAME } from '../../electron/shell/identity.ts';

const root = path.join(import.meta.dirname, '../..');
/** The part of electron-builder's configuration these checks read. */
interface BuilderConfig {
  appId: string;
  productName: string;
  publish: unknown;
  directories: { output: string; buildResources: string };
  extraMetadata: { desktopName: string };
  files: string[];
  extraResources: Array<{ from: string; to: string }>;
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  buildDependenciesFromSource: boolean;
  electronFuses: Record<string, boolean>;
  fileAssociations?: unknown;
  linux: { target: string[]; category: string; executableName: string; mimeTypes: string[]; icon: string };
  deb: { executableArgs: string[] };
  appImage: { executableArgs: string[] };
  mac: { target: string[]; icon: string; extendInfo: { CFBundleDocumentTypes: Array<{ LSHandlerRank: string }> } };
  win: { target: string[]; icon: string };
  nsis: { include: string };
}
const config = YAML.parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string>; engines: { node: string } };

/** electron-builder's `files` semantics: patterns in order, a later match wins, `!` excludes. */
function packaged(file: string): boolean {
  let included = false;
  for (const pattern of config.files) {
    const negated = pattern.startsWith('!');
    if (path.matchesGlob(file, negated ? pattern.slice(1) : pattern)) included = !negated;
  }
  return included;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder schema validation', async () => {
    const require = createRequire(path.join(root, 'node_modules/electron-builder/package.json'));
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(validateConfiguration(structuredClone(config), { isEnabled: false, add: () => {} })).resolves.toBeUndefined();
  });

  it('names the app as the code does, and writes to release/', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(config.directories.output).toBe('release');
    expect(config.directories.buildResources).toBe('build');
    expect(config.publish).toBeNull();
  });

  it('builds AppImage and deb for Linux, dmg for macOS, nsis for Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('sets the Electron fuses', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('packages the built app and package.json only: no sources, tests, maps or TypeScript', () => {
    for (const file of ['package.json', 'node_modules/keytar/build/Release/keytar.node', 'node_modules/@verdict/fdpass/build/Release/fdpass.node', 'node_modules/@verdict/fdpass/index.cjs', 'dist/renderer/index.html', 'dist/renderer/assets/index-abc123.js', 'dist-electron/main.js', 'dist-electron/preload.cjs']) {
      expect(packaged(file), file).toBe(true);
    }
    for (const file of [
      'electron/main.ts',
      'electron/shell/window.ts',
      'shared/bridge/api.ts',
      'renderer/index.html',
      'renderer/app/App.tsx',
      'test/electron/packaging.test.ts',
      'test/e2e/app.test.ts',
      'dist-electron/main.js.map',
      'dist/renderer/assets/index-abc123.js.map',
      'dist/renderer/types.d.ts',
      'vite.config.ts',
      'electron-builder.yml',
      'tsconfig.json',
      'README.md',
      'build/icon.svg',
      'release/Verdict.AppImage',
      '.ci/run',
      'node_modules/zod/index.js',
      'node_modules/keytar/src/keytar.cc',
      'node_modules/@verdict/fdpass/src/fdpass.c',
      'node_modules/@verdict/fdpass/build/Release/obj.target/fdpass/src/fdpass.o',
    ]) {
      expect(packaged(file), file).toBe(false);
    }
  });

  it('starts the app from what it packages', () => {
    expect(pkg.main).toBe('dist-electron/main.js');
    expect(packaged(pkg.main)).toBe(true);
  });

  it('packs into asar, unpacking native addons, and rebuilds keytar (and the fd-passing addon) for Electron from source', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(true);
    expect(pkg.dependencies).toHaveProperty('keytar');
    expect(pkg.dependencies).toHaveProperty('@verdict/fdpass', 'file:electron/engine/fdpass');
  });

  it('ships the icons the code looks for', () => {
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon]) expect(fs.existsSync(path.join(root, icon)), icon).toBe(true);
    const tray = config.extraResources.find((entry) => entry.from === 'build/tray');
    expect(tray).toMatchObject({ to: 'tray' });
    for (const state of ['idle', 'scanning', 'threat']) expect(fs.existsSync(path.join(root, 'build/tray', `tray-${state}.png`)), state).toBe(true);
    expect(config.extraResources).toContainEqual({ from: 'build/icon.png', to: 'icon.png' });
  });

  it('lets the desktop open files and folders with Verdict without claiming file types', () => {
    // The generated entries themselves are validated in packaging/electron-builder.test.ts.
    expect(config.deb.executableArgs).toEqual(['%F']);
    expect(config.appImage.executableArgs).toEqual([]);
    expect(config.linux.category).toBe('System;Security');
    expect(config.linux.mimeTypes).toEqual(['application/octet-stream', 'inode/directory']);
    expect(config.extraMetadata.desktopName).toBe('verdict.desktop');
    expect(config.linux.executableName).toBe('verdict');
    // A top-level fileAssociations entry would make Verdict the Windows handler for those extensions.
    expect(config.fileAssociations).toBeUndefined();
    expect(config.mac.extendInfo.CFBundleDocumentTypes[0]?.LSHandlerRank).toBe('Alternate');
    const nsis = fs.readFileSync(path.join(root, config.nsis.include), 'utf8');
    expect(nsis).toContain('Software\\Classes\\*\\shell\\VerdictScan');
    expect(nsis).toContain('Software\\Classes\\Directory\\shell\\VerdictScan');
    expect(nsis).toMatch(/customUnInstall[\s\S]*DeleteRegKey SHCTX "Software\\Classes\\\*\\shell\\VerdictScan"/);
  });
});

describe('Node version', () => {
  it('npm ci stops on a Node older than 24 (engine-strict in the committed .npmrc)', () => {
    // 24.2 brought import.meta.main, which the CLI modules use to run as scripts.
    expect(pkg.engines.node).toBe('>=24.2.0');
    expect(fs.readFileSync(path.join(root, '.npmrc'), 'utf8').split('\n')).toContain('engine-strict=true');
  });
});

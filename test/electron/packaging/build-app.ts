// Builds the app as `npm run build` does (renderer, main + service thread, preload), with
// the project's own vite configuration, into a temporary project folder that electron-builder
// can package: package.json, package-lock.json, build/ and a link to node_modules beside it
// (not electron-builder.yml: a test passes its configuration, which would be merged with the file's).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const projectRoot = path.join(import.meta.dirname, '../../..');

export interface BuiltApp {
  /** The temporary project folder (dist/, dist-electron/, package.json, build/, node_modules →). */
  dir: string;
  remove(): void;
}

export async function buildApp(): Promise<BuiltApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-app-'));
  const { build: viteBuild, mergeConfig } = await import('vite');
  const { build: electronBuild } = await import('vite-plugin-electron');
  const { rendererConfig, mainBuild, mainEntries, preloadBuild } = await import('../../../vite.config.ts');
  const quiet = { logLevel: 'silent' as const, configFile: false as const };
  await viteBuild(mergeConfig(rendererConfig, { ...quiet, build: { outDir: path.join(dir, 'dist/renderer'), emptyOutDir: true } }));
  const out = path.join(dir, 'dist-electron');
  await electronBuild({ entry: mainEntries, vite: mergeConfig(mainBuild, { ...quiet, build: { outDir: out } }) });
  await electronBuild({ vite: mergeConfig(preloadBuild, { ...quiet, build: { outDir: out } }) });
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(projectRoot, file), path.join(dir, file));
  fs.cpSync(path.join(projectRoot, 'build'), path.join(dir, 'build'), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(projectRoot, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

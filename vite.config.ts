// Build configuration. The renderer part is exported on its own so the Electron
// main/preload build (vite-plugin-electron) can be added to the plugins without
// touching it: `plugins: [...rendererConfig.plugins, electron(...)]`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import electron from 'vite-plugin-electron/simple';

// (Not `new URL(…)`: shared/runtime-globals.d.ts narrows the URL type for the node typecheck.)
const here = (relative: string): string => path.resolve(import.meta.dirname, relative);

/** The React renderer: renderer/ → dist/renderer, loaded from file:// by Electron (hence relative `base`). */
export const rendererConfig: UserConfig = {
  root: here('./renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: here('./dist/renderer'),
    emptyOutDir: true,
    // No inline <script>/<style> and no data: URLs for scripts, so the strict CSP holds.
    assetsInlineLimit: 0,
  },
};

// ---- Electron main and preload (vite-plugin-electron), built after the renderer. ----

/** package.json "dependencies" stay in node_modules (keytar is native; electron-builder ships them). */
const dependencies = Object.keys(
  (JSON.parse(readFileSync(here('./package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {},
);
const isDependency = (id: string): boolean => dependencies.some((name) => id === name || id.startsWith(`${name}/`));

/** dist-electron/main.js: ESM, with the dependencies left to node_modules. */
export const mainBuild: UserConfig = {
  root: here('.'),
  build: { outDir: here('./dist-electron'), emptyOutDir: false, rolldownOptions: { external: isDependency } },
};

/**
 * dist-electron/preload.cjs: CommonJS and self-contained, because a sandboxed preload
 * can require only `electron` (test/electron/shell/preload-bundle.test.ts builds it).
 */
export const preloadBuild: UserConfig = {
  root: here('.'),
  build: {
    outDir: here('./dist-electron'),
    emptyOutDir: false,
    rolldownOptions: {
      input: here('./electron/preload.ts'),
      output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
    },
  },
};

export const electronPlugins = electron({
  main: {
    // The embedded service's worker thread is an entry of its own: start-in-thread.ts
    // loads `service-thread.js` from next to the main bundle.
    entry: { main: here('./electron/main.ts'), 'service-thread': here('./electron/local-service/thread/service-thread.ts') },
    vite: mainBuild,
    // Development (`npm run dev`): start Electron from the project root, with its sandbox
    // on (the plugin's default adds --no-sandbox).
    onstart: ({ startup }) => void startup(['.'], { cwd: here('.') }),
  },
  preload: { input: here('./electron/preload.ts'), vite: preloadBuild },
});

export default defineConfig({ ...rendererConfig, plugins: [...(rendererConfig.plugins ?? []), electronPlugins] });

// Build configuration. The renderer part is exported on its own so the Electron
// main/preload build (vite-plugin-electron) can be added to the plugins without
// touching it: `plugins: [...rendererConfig.plugins, electron(...)]`.
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

/**
 * Run-time imports the main bundles keep: the native addons only, keytar and @verdict/fdpass (each loaded
 * with `createRequire`: electron/keychain/keychain.ts, electron/engine/clamd/fd-passing.ts). Every pure-JS
 * dependency is bundled, so nothing resolves a bare package name through Electron's ESM loader inside
 * app.asar. `electron` and Node's built-ins are left external by vite-plugin-electron.
 */
export const RUNTIME_PACKAGES = ['keytar', '@verdict/fdpass'] as const;
const isRuntimePackage = (id: string): boolean => RUNTIME_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * The main process and its worker threads: the embedded service's (start-in-thread.ts loads `service-thread.js`
 * next to main.js) and the fingerprint threads' (fingerprint-pool.ts loads `fingerprint-thread.js` the same way).
 */
export const mainEntries = {
  main: here('./electron/main.ts'),
  'service-thread': here('./electron/local-service/thread/service-thread.ts'),
  'fingerprint-thread': here('./electron/fingerprint/fingerprint-thread.ts'),
};

/** dist-electron/main.js, service-thread.js and fingerprint-thread.js: ESM, self-contained but for keytar. */
export const mainBuild: UserConfig = {
  root: here('.'),
  build: { outDir: here('./dist-electron'), emptyOutDir: false, minify: false, rolldownOptions: { external: isRuntimePackage, platform: 'node' } },
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
    entry: mainEntries,
    vite: mainBuild,
    // Development (`npm run dev`): start Electron from the project root, with its sandbox
    // on (the plugin's default adds --no-sandbox).
    onstart: ({ startup }) => void startup(['.'], { cwd: here('.') }),
  },
  preload: { input: here('./electron/preload.ts'), vite: preloadBuild },
});

export default defineConfig({ ...rendererConfig, plugins: [...(rendererConfig.plugins ?? []), electronPlugins] });

// `node --import ./electron-hook.ts …`: the built app's `import … from "electron"` (and the
// preload's `require("electron")`) resolve to the run-time stand-in beside this file.
import { registerHooks } from 'node:module';

const STAND_IN = new URL('./electron-stand-in.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

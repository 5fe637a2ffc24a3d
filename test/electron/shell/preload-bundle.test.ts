// A sandboxed preload can require only `electron` (and a few Node builtins), so the
// built preload must be one self-contained CommonJS file. This builds it with the
// project's own vite configuration and looks at what it requires.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-preload-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('the built preload', () => {
  it('is one CommonJS file that requires nothing but electron', async () => {
    const { mergeConfig } = await import('vite');
    const { build } = await import('vite-plugin-electron');
    const { preloadBuild } = await import('../../../vite.config.ts');
    await build({ vite: mergeConfig(preloadBuild, { logLevel: 'silent', build: { outDir: out, emptyOutDir: true } }) });

    expect(fs.readdirSync(out)).toEqual(['preload.cjs']);
    const code = fs.readFileSync(path.join(out, 'preload.cjs'), 'utf8');
    const required = [...code.matchAll(/require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).toContain('exposeInMainWorld');
    // The contract's zod schemas stay out of the preload (only its types are used).
    expect(code).not.toContain('ZodError');
  });
});

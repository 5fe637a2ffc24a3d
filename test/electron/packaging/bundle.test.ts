// The built main process and the service thread must not resolve npm packages by bare
// name at run time: Electron's ESM loader broke that path inside app.asar twice
// (electron/electron#41241, #45896). This builds them and reads every import, export-from,
// dynamic import() and require() with a literal specifier, using TypeScript's parser (so
// specifiers in comments do not count).
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_PACKAGES } from '../../../vite.config.ts';
import { buildApp, type BuiltApp } from './build-app.ts';

let app: BuiltApp;
beforeAll(async () => {
  app = await buildApp();
});
afterAll(() => app?.remove());

/** Literal module specifiers a file loads: static imports, re-exports, import(), and calls of require-like functions. */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      // require("x"), __require("x") and createRequire(import.meta.url)("x").
      const isRequire = (ts.isIdentifier(callee) && /require$/i.test(callee.text)) || (ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire');
      if (isImport || isRequire) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the built main process and service thread', () => {
  it('load only electron, keytar, Node built-ins and their own chunks', () => {
    const out = path.join(app.dir, 'dist-electron');
    const files = fs.readdirSync(out).filter((name) => name.endsWith('.js'));
    expect(files).toContain('main.js');
    expect(files).toContain('service-thread.js');
    expect(files).toContain('fingerprint-thread.js');
    const external = new Set<string>();
    for (const name of files) {
      for (const specifier of specifiersOf(path.join(out, name))) {
        if (specifier.startsWith('./')) expect(files, `${name} → ${specifier}`).toContain(specifier.slice(2));
        else if (!isBuiltin(specifier)) external.add(specifier);
      }
    }
    expect([...external].sort()).toEqual(['electron', ...RUNTIME_PACKAGES].sort());
  });

  it('bundles the pure-JS dependencies the sources import', () => {
    const code = fs.readdirSync(path.join(app.dir, 'dist-electron')).map((name) => fs.readFileSync(path.join(app.dir, 'dist-electron', name), 'utf8')).join('\n');
    // A marker from each package's own source: its code is in the bundle, not loaded from node_modules.
    const markers = { zod: 'ZodError', pino: 'SonicBoom', chokidar: 'FSWatcher', busboy: 'Multipart: Boundary not found', undici: 'UND_ERR_CONNECT_TIMEOUT', 'file-type': 'FileTypeParser' };
    for (const [name, marker] of Object.entries(markers)) expect(code, name).toContain(marker);
  });

  it('loads keytar through createRequire, so CommonJS resolution finds it inside app.asar', () => {
    const code = fs.readdirSync(path.join(app.dir, 'dist-electron')).filter((name) => name.endsWith('.js')).map((name) => fs.readFileSync(path.join(app.dir, 'dist-electron', name), 'utf8'));
    expect(code.filter((text) => /createRequire\(import\.meta\.url\)\("keytar"\)/.test(text))).toHaveLength(1);
  });

  it('keeps the CLIs\' `import.meta.main` starts out of the entries (the app runs them as commands instead)', () => {
    for (const entry of ['main.js', 'service-thread.js', 'fingerprint-thread.js']) expect(fs.readFileSync(path.join(app.dir, 'dist-electron', entry), 'utf8'), entry).not.toContain('import.meta.main');
  });
});

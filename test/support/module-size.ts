// Measures the source tree as STYLE.md's sizes ask: every function's length in
// lines, and every file's lines of code (lines holding a token: no blank or
// comment-only lines), with TypeScript's own parser. Used by the size test and
// runnable for a report: `node test/support/module-size.ts [TOP]`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 150;
export const MAX_FILE_CODE_LINES = 400;
export const SOURCE_ROOTS = ['electron', 'renderer', 'shared'] as const;

export interface FunctionSize {
  file: string;
  name: string;
  line: number;
  lines: number;
}
export interface FileSize {
  file: string;
  codeLines: number;
}

const ROOT = path.join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

function functionName(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return '(anonymous)';
}

export function measure(file: string): { file: FileSize; functions: FunctionSize[] } {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, kind === ts.ScriptKind.TSX ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text);
  const codeLines = new Set<number>();
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    for (let line = lineOf(scanner.getTokenStart()); line <= lineOf(scanner.getTokenEnd()); line++) codeLines.add(line);
  }
  const functions: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = lineOf(node.getStart());
      functions.push({ file, name: functionName(node), line: start + 1, lines: lineOf(node.end) - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { file: { file, codeLines: codeLines.size }, functions };
}

export function measureTree(): { files: FileSize[]; functions: FunctionSize[] } {
  const measured = SOURCE_ROOTS.flatMap(sourceFiles).map(measure);
  return { files: measured.map((m) => m.file), functions: measured.flatMap((m) => m.functions) };
}

if (import.meta.filename === process.argv[1]) {
  const top = Number(process.argv[2] ?? 10);
  const { files, functions } = measureTree();
  console.log('longest functions (lines):');
  for (const f of functions.sort((a, b) => b.lines - a.lines).slice(0, top)) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  console.log('largest files (lines of code):');
  for (const f of files.sort((a, b) => b.codeLines - a.codeLines).slice(0, top)) console.log(`  ${String(f.codeLines).padStart(4)}  ${f.file}`);
}

// STYLE.md's sizes, checked mechanically over electron/, renderer/ and shared/:
// no function over 150 lines and no file over 400 lines of code. An exception
// is listed here with its reason, and argued in a comment where it stands.
import { describe, expect, it } from 'vitest';
import { MAX_FILE_CODE_LINES, MAX_FUNCTION_LINES, measureTree } from '../support/module-size.ts';

/** Files allowed over the file limit, each with the reason its own header comment gives. */
const LONG_FILES: Record<string, string> = {
  'renderer/i18n/en.ts': 'the catalogue of every English text: a flat list of keys, read by key, not as code',
  'renderer/i18n/de.ts': 'the German catalogue, key for key the same as en.ts',
};

describe('module sizes', () => {
  const { files, functions } = measureTree();

  it('measures the whole tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(functions.length).toBeGreaterThan(500);
  });

  it(`no function is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const long = functions.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`no file has more than ${MAX_FILE_CODE_LINES} lines of code, but for the argued exceptions`, () => {
    const large = files.filter((f) => f.codeLines > MAX_FILE_CODE_LINES && !(f.file in LONG_FILES)).map((f) => `${f.file} (${f.codeLines})`);
    expect(large).toEqual([]);
  });

  it('every listed exception still exists and is still needed', () => {
    for (const file of Object.keys(LONG_FILES)) expect(files.find((f) => f.file === file)?.codeLines ?? 0).toBeGreaterThan(MAX_FILE_CODE_LINES);
  });
});

// The built-in engine: the EICAR test file per its definition, and an honest clean label.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUILTIN_IDENTITY } from '../../../shared/engine/engine-identity.ts';
import { BuiltinEngine, EICAR_FINDING, isEicarTestFile } from '../../../electron/engine/builtin-engine.ts';
import { DETAILED_LABELS, EngineError } from '../../../electron/engine/engine.ts';
import { EICAR, fixtureDir, noise, type FixtureDir } from '../../fixtures/engine-files.ts';

const INFECTED = { safe: false, detailed: 'infected', findings: [{ name: EICAR_FINDING }], engine: BUILTIN_IDENTITY };
const BASIC_CLEAN = { safe: true, detailed: 'clean (basic checks only; ClamAV not available)', findings: [], engine: BUILTIN_IDENTITY };

let files: FixtureDir;
const engine = new BuiltinEngine();
beforeAll(async () => {
  files = await fixtureDir();
});
afterAll(async () => {
  await files.remove();
});

describe('BuiltinEngine', () => {
  test('the 68-byte EICAR file is infected', async () => {
    expect(EICAR.length).toBe(68);
    await expect(engine.scan(await files.write('eicar.com', EICAR))).resolves.toEqual(INFECTED);
  });

  test.for([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['spaces and tabs', '  \t \t'],
    ['Ctrl-Z', '\x1a'],
    ['whitespace up to 128 bytes in all', ' '.repeat(60)],
  ] as [string, string][])('EICAR followed by %s is infected', async ([, padding]) => {
    const file = await files.write(`eicar-${padding.length}-${padding.charCodeAt(0)}.com`, Buffer.concat([EICAR, Buffer.from(padding, 'latin1')]));
    await expect(engine.scan(file)).resolves.toEqual(INFECTED);
  });

  test.for([
    ['padded past 128 bytes', Buffer.concat([EICAR, Buffer.alloc(61, ' ')])],
    ['followed by other text', Buffer.concat([EICAR, Buffer.from(' hello')])],
    ['after a prefix', Buffer.concat([Buffer.from(' '), EICAR])],
    ['in the middle of a file, after 128 bytes', Buffer.concat([noise(4096), EICAR, noise(4096, 2)])],
    ['truncated', EICAR.subarray(0, 67)],
  ] as [string, Buffer][])('EICAR %s is not the test file (per its definition)', async ([name, content]) => {
    await expect(engine.scan(await files.write(`not-eicar-${name}`, content))).resolves.toEqual(BASIC_CLEAN);
  });

  test('a clean file says only basic checks ran', async () => {
    const verdict = await engine.scan(await files.write('clean.txt', 'nothing to see'));
    expect(verdict).toEqual(BASIC_CLEAN);
    expect(verdict.detailed).toBe(DETAILED_LABELS.basicChecksClean);
    expect(verdict.detailed).not.toBe('clean');
  });

  test('an empty file is clean (basic checks only)', async () => {
    await expect(engine.scan(await files.write('empty', ''))).resolves.toEqual(BASIC_CLEAN);
  });

  test('an unreadable file is file_unreadable, not clean', async () => {
    const error = await engine.scan(`${files.path}/missing`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('file_unreadable');
  });

  test('an aborted signal is engine_aborted', async () => {
    const file = await files.write('abort.txt', 'x');
    const error = await engine.scan(file, AbortSignal.abort()).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('engine_aborted');
  });

  test('scanBytes gives the same verdict as scan for the same bytes', async () => {
    const cases = [
      EICAR,
      Buffer.concat([EICAR, Buffer.from('\r\n')]),
      Buffer.concat([EICAR, Buffer.alloc(61, ' ')]),
      Buffer.concat([Buffer.from(' '), EICAR]),
      EICAR.subarray(0, 67),
      Buffer.alloc(0),
      noise(100_000, 3),
    ];
    for (const [index, content] of cases.entries()) {
      const fromFile = await engine.scan(await files.write(`bytes-${index}`, content));
      await expect(engine.scanBytes(content)).resolves.toEqual(fromFile);
    }
    const error = await engine.scanBytes(EICAR, AbortSignal.abort()).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('engine_aborted');
  });
});

test('isEicarTestFile follows the definition byte by byte', () => {
  expect(isEicarTestFile(EICAR)).toBe(true);
  const changed = Buffer.from(EICAR);
  changed[10] = 0x41;
  expect(isEicarTestFile(changed)).toBe(false);
  expect(isEicarTestFile(Buffer.concat([EICAR, Buffer.from('\v')]))).toBe(false);
});

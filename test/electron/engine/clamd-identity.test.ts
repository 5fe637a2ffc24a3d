// Each ClamAV verdict carries clamd's identity (VERSION): asked alongside the first
// scan, kept for a while, and asked again when that time is up or after a failed scan
// (clamd restarted, or reloaded new signatures). Against a scanning clamd stand-in
// on a real socket, since only it can report dated signatures offline.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ClamdEngine } from '../../../electron/engine/clamd-engine.ts';
import { EngineError } from '../../../electron/engine/engine.ts';
import { datedVersionLine, startScanningClamdStandIn } from '../../support/clamd-stand-in.ts';
import { tempDir } from '../scans/harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
const closing: Array<() => Promise<void>> = [];
beforeEach(async () => {
  dir = await tempDir('verdict-clamd-identity-');
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  await dir.remove();
});

async function standIn(line: string) {
  const socketPath = join(dir.path, 'clamd.sock');
  await rm(socketPath, { force: true });
  const started = await startScanningClamdStandIn(socketPath, line);
  closing.push(() => started.close());
  return started;
}

function engineFor(socketPath: string, identityMaxAgeMs?: number): ClamdEngine {
  const engine = new ClamdEngine({ endpoint: { socketPath }, connectTimeoutMs: 1_000, ...(identityMaxAgeMs !== undefined ? { identityMaxAgeMs } : {}) });
  closing.push(() => engine.close());
  return engine;
}

describe("a ClamAV verdict names clamd's version and signatures", () => {
  test('the dated VERSION answer, kept for the verdicts that follow', async () => {
    const first = datedVersionLine(5, 27467);
    const clamd = await standIn(first.line);
    const engine = engineFor(clamd.socketPath);
    const verdict = await engine.scanBytes(Buffer.from('hello'));
    expect(verdict).toEqual({
      safe: true,
      detailed: 'clean',
      findings: [],
      engine: { name: 'clamav', version: '1.4.6', signatures: { version: 27467, date: first.date.toISOString() } },
    });
    // A reload meanwhile is seen once the kept answer is due again (60 s by default), not at once.
    clamd.setVersion(datedVersionLine(1, 27468).line);
    expect((await engine.scanBytes(Buffer.from('again'))).engine?.signatures?.version).toBe(27467);
  });

  test('asked for every verdict with identityMaxAgeMs 0: a RELOAD with new signatures shows in the next verdict', async () => {
    const clamd = await standIn(datedVersionLine(30, 27467).line);
    const engine = engineFor(clamd.socketPath, 0);
    expect((await engine.scan(join(import.meta.dirname, 'clamd-identity.test.ts'))).engine?.signatures?.version).toBe(27467);
    const reloaded = datedVersionLine(1, 27470);
    clamd.setVersion(reloaded.line);
    expect((await engine.scanBytes(Buffer.from('after the reload'))).engine).toEqual({ name: 'clamav', version: '1.4.6', signatures: { version: 27470, date: reloaded.date.toISOString() } });
  });

  test('after a failed scan (clamd gone, then back with other signatures) the next verdict asks again', async () => {
    const clamd = await standIn(datedVersionLine(30, 27467).line);
    const engine = engineFor(clamd.socketPath);
    expect((await engine.scanBytes(Buffer.from('one'))).engine?.signatures?.version).toBe(27467);
    await clamd.close();
    const failed = await engine.scanBytes(Buffer.from('two')).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(EngineError);
    expect((failed as EngineError).code).toBe('engine_unavailable');
    await standIn(datedVersionLine(2, 27480).line);
    expect((await engine.scanBytes(Buffer.from('three'))).engine?.signatures?.version).toBe(27480);
  });

  test('custom databases only (no signature version): ClamAV with its version, signatures null', async () => {
    const clamd = await standIn('ClamAV 1.4.6');
    expect((await engineFor(clamd.socketPath).scanBytes(Buffer.from('x'))).engine).toEqual({ name: 'clamav', version: '1.4.6', signatures: null });
  });

  test('a VERSION answer that is not one: still ClamAV, without a version (never a failed scan)', async () => {
    const clamd = await standIn('ClamAV');
    expect((await engineFor(clamd.socketPath).scanBytes(Buffer.from('x'))).engine).toEqual({ name: 'clamav', version: null, signatures: null });
  });
});

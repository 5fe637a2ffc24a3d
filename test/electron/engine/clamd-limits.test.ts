// What the client reads from clamd.conf, and how many commands it keeps in flight.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLAMD_LIMIT_DEFAULTS, inFlightLimit, parseClamdLimits, readClamdLimits, withDefaults } from '../../../electron/engine/clamd/clamd-limits.ts';

describe('parseClamdLimits', () => {
  test('reads the four settings, case-insensitively, with size suffixes; ignores comments and the rest', () => {
    const conf = ['# MaxThreads 99', 'LocalSocket /run/clamav/clamd.ctl', 'MaxThreads 12', 'maxqueue   40', 'ReadTimeout 180', 'StreamMaxLength 25M', 'Foreground yes'].join('\n');
    expect(parseClamdLimits(conf)).toEqual({ maxThreads: 12, maxQueue: 40, readTimeoutS: 180, streamMaxLength: 25 * 1024 * 1024 });
    expect(parseClamdLimits('StreamMaxLength 512k')).toEqual({ streamMaxLength: 512 * 1024 });
    expect(parseClamdLimits('StreamMaxLength 1000')).toEqual({ streamMaxLength: 1000 });
  });

  test('an unreadable value is left out, so the default stands', () => {
    expect(parseClamdLimits('MaxThreads lots\nStreamMaxLength 5T\nReadTimeout -1\nMaxQueue')).toEqual({});
  });

  test('a config that cannot be read gives nothing; one that can, its limits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verdict-limits-'));
    try {
      expect(await readClamdLimits(join(dir, 'missing.conf'))).toEqual({});
      await writeFile(join(dir, 'clamd.conf'), 'MaxThreads 4\n');
      expect(await readClamdLimits(join(dir, 'clamd.conf'))).toEqual({ maxThreads: 4 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('inFlightLimit', () => {
  test('clamd\'s defaults (10 threads, queue 100): 8', () => {
    expect(inFlightLimit(CLAMD_LIMIT_DEFAULTS)).toBe(8);
  });

  test('about MaxThreads, never over MaxQueue/2, never under 1', () => {
    expect(inFlightLimit(withDefaults({ maxThreads: 32 }))).toBe(30);
    expect(inFlightLimit(withDefaults({ maxThreads: 32, maxQueue: 20 }))).toBe(10);
    expect(inFlightLimit(withDefaults({ maxThreads: 1 }))).toBe(1);
    expect(inFlightLimit(withDefaults({ maxQueue: 1 }))).toBe(1);
  });

  test('a requested number is honoured within the same bounds', () => {
    expect(inFlightLimit(CLAMD_LIMIT_DEFAULTS, 16)).toBe(16);
    expect(inFlightLimit(CLAMD_LIMIT_DEFAULTS, 500)).toBe(50);
    expect(inFlightLimit(CLAMD_LIMIT_DEFAULTS, 0)).toBe(1);
    expect(inFlightLimit(CLAMD_LIMIT_DEFAULTS, 2.7)).toBe(2);
  });
});

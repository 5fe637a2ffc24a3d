// The identity a clean verdict judged (scans/pipeline/judged.ts): the stat taken before the read,
// in nanoseconds, stands for the file read only when the opened file's plain fstat (what the
// fingerprint and the engine compare) shows the same device, inode, size and times. Real files.
import { fstatSync, mkdtempSync, openSync, closeSync, rmSync, statSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { Pipeline } from '../../../electron/scans/pipeline/context.ts';
import { judgedIdentity, noteOpened, tellJudged } from '../../../electron/scans/pipeline/judged.ts';
import { identityOf } from '../../../electron/scans/pipeline/unchanged.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'verdict-judged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pipeline holding one tracked record with this identity before its read. */
function holding(file: ReturnType<typeof identityOf>) {
  const tracked: { unchangedBefore?: { file: typeof file; atMs: number }; judged?: typeof file } = { unchangedBefore: { file, atMs: 0 } };
  const p = { memory: { records: new Map([['r1', tracked]]) } } as unknown as Pipeline;
  return { p, tracked };
}

const openedOf = (target: string) => {
  const fd = openSync(target, 'r');
  try {
    const info = fstatSync(fd);
    return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, dev: info.dev, ino: info.ino };
  } finally {
    closeSync(fd);
  }
};

describe('judged identity', () => {
  it('a file whose opened fstat agrees is judged with its identity in nanoseconds, told beside its record; any change and none is', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4_000_000_000 }), fc.integer({ min: 0, max: 999_999 }), fc.uint8Array({ maxLength: 64 }), (seconds, micros, bytes) => {
        const target = path.join(dir, 'file.bin');
        writeFileSync(target, bytes);
        // Times with a fraction of a millisecond: the plain stat's mtimeMs must be what the nanoseconds give.
        const at = seconds + micros / 1e6;
        utimesSync(target, at, at);
        const file = identityOf(statSync(target, { bigint: true }));
        const { p, tracked } = holding(file);
        noteOpened(p, 'r1', openedOf(target));
        expect(tracked.judged).toEqual(file);
        const record = { id: 'r1' } as ScanRecord;
        tellJudged(record, tracked.judged);
        expect(judgedIdentity(record)).toEqual(file);
        expect(judgedIdentity({ id: 'r1' } as ScanRecord)).toBeUndefined();

        // Rewritten with one more byte since the stat: the file read is not the one stat'ed.
        writeFileSync(target, Buffer.concat([Buffer.from(bytes), Buffer.from([1])]));
        noteOpened(p, 'r1', openedOf(target));
        expect(tracked.judged).toBeUndefined();
      }),
      { numRuns: 40 },
    );
  });

  it('another file at the path (a rename over it) is not judged with the first one\'s identity', () => {
    const target = path.join(dir, 'swapped.bin');
    writeFileSync(target, 'first');
    const file = identityOf(statSync(target, { bigint: true }));
    const other = path.join(dir, 'other.bin');
    writeFileSync(other, 'other');
    const { p, tracked } = holding(file);
    noteOpened(p, 'r1', openedOf(other));
    expect(tracked.judged).toBeUndefined();
  });

  it("the engine's word that it scanned the file unchanged holds for one read: a retry's read must earn it again", () => {
    const target = path.join(dir, 'retried.bin');
    writeFileSync(target, 'content');
    const file = identityOf(statSync(target, { bigint: true }));
    const { p, tracked } = holding(file);
    const told = tracked as typeof tracked & { judgedUntilVerdict?: true };
    noteOpened(p, 'r1', openedOf(target));
    told.judgedUntilVerdict = true;
    // Read again (a retry): judged again, but the engine has not scanned this read's descriptor yet.
    noteOpened(p, 'r1', openedOf(target));
    expect(tracked.judged).toEqual(file);
    expect(told.judgedUntilVerdict).toBeUndefined();
  });
});

// The list's rows are keyed by slot, so a scroll reuses the row elements it has (row-slots.ts):
// the rows on screen at once never share a key, a row that stays on screen keeps its key (React
// keeps its element), and a row scrolled in takes the key of one scrolled out (no new element).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRowSlots } from '../../renderer/scans/row-slots.ts';

/** Indexes first..first+length-1: the rows a virtual list renders. */
const range = (first: number, length: number): number[] => Array.from({ length }, (_, i) => first + i);

/** A list's renders: where its window starts and how many rows it holds (a fling, a scrollbar jump, a resize). */
const windows = fc.array(fc.record({ first: fc.nat(100_000), length: fc.nat(80) }), { minLength: 1, maxLength: 20 });

describe('row slots', () => {
  it('gives the rows on screen distinct keys and keeps the key of every row still on screen', () => {
    fc.assert(
      fc.property(windows, (renders) => {
        const slots = createRowSlots();
        let before = new Map<number, number>();
        for (const { first, length } of renders) {
          const indexes = range(first, length);
          const keys = slots.assign(indexes);
          expect(new Set(keys).size).toBe(length);
          indexes.forEach((index, i) => {
            if (before.has(index)) expect(keys[i]).toBe(before.get(index));
          });
          before = new Map(indexes.map((index, i) => [index, keys[i]!]));
        }
      }),
    );
  });

  it('makes no new key while the window keeps its size: rows scrolled in take the keys of rows scrolled out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.array(fc.nat(100_000), { minLength: 1, maxLength: 20 }), (length, firsts) => {
        const slots = createRowSlots();
        const first = new Set(slots.assign(range(0, length)));
        for (const start of firsts) expect(new Set([...first, ...slots.assign(range(start, length))]).size).toBe(length);
      }),
    );
  });

  it('hands the freed keys to the rows scrolled in, in order', () => {
    const slots = createRowSlots();
    expect(slots.assign(range(0, 4))).toEqual([0, 1, 2, 3]);
    // Scrolled by two rows: rows 2 and 3 keep theirs, 4 and 5 take those of 0 and 1.
    expect(slots.assign(range(2, 4))).toEqual([2, 3, 0, 1]);
    // A taller window: one key more.
    expect(slots.assign(range(2, 5))).toEqual([2, 3, 0, 1, 4]);
    // A jump (a scrollbar drag): the keys in the order the rows had, so no element changes place in the document.
    expect(slots.assign(range(5_000, 5))).toEqual([2, 3, 0, 1, 4]);
  });
});

// Keys for the virtual list's rows by slot, not by index, so scrolling reuses the row
// elements the list has: a row that stays on screen keeps its slot, and a row that scrolls in
// takes the slot of one that scrolled out. Keyed by index, each row scrolled in was a new
// element tree (its icons too) and each row scrolled out one to remove: the longest part of a
// scrolled frame, and the frames a scrollbar drag makes are long tasks on a busy machine.

export interface RowSlots {
  /** The slot of each of `indexes` (the rows rendered now, distinct): distinct slots, the same as last time for a row rendered then too. */
  assign(indexes: readonly number[]): number[];
}

export function createRowSlots(): RowSlots {
  let previous = new Map<number, number>();
  return {
    assign(indexes) {
      const staying = new Set<number>();
      for (const index of indexes) {
        const slot = previous.get(index);
        if (slot !== undefined) staying.add(slot);
      }
      // Slots of rows gone from the screen, handed out in the order their elements stand in the
      // list (top to bottom), then new ones above all in use: after a jump every element stays
      // where it is in the document, so React moves none.
      const free = [...previous.values()].filter((slot) => !staying.has(slot));
      let next = Math.max(-1, ...previous.values()) + 1;
      const current = new Map<number, number>();
      const slots = indexes.map((index) => {
        const slot = previous.get(index) ?? free.shift() ?? next++;
        current.set(index, slot);
        return slot;
      });
      previous = current;
      return slots;
    },
  };
}

// The CLI's line writer: lines held until the next turn of the event loop and written together, in
// order; the rest written when the process exits; a terminal's lines written one by one at once.
import { describe, expect, it } from 'vitest';
import { createLineWriter } from '../../../electron/cli/line-writer.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('createLineWriter', () => {
  it('writes the lines of one turn together, in order, at the next turn', async () => {
    const writes: string[] = [];
    const writer = createLineWriter((text) => writes.push(text), () => {});
    writer.line('one');
    writer.line('two');
    expect(writes).toEqual([]);
    await nextTurn();
    writer.line('three');
    await nextTurn();
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
  });

  it('writes what it still holds when the process exits', () => {
    const writes: string[] = [];
    let atExit: (() => void) | null = null;
    const writer = createLineWriter((text) => writes.push(text), (flush) => (atExit = flush));
    writer.line('last');
    atExit!();
    expect(writes).toEqual(['last\n']);
    // Nothing is written twice once the turn comes.
    writer.flush();
    expect(writes).toEqual(['last\n']);
  });

  it('writes each line at once to a terminal', () => {
    const writes: string[] = [];
    const writer = createLineWriter((text) => writes.push(text), () => {}, true);
    writer.line('a');
    writer.line('b');
    expect(writes).toEqual(['a\n', 'b\n']);
  });
});

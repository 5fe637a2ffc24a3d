// What a folder expansion keeps in memory (seen-entries.ts), against real files, hard links and
// symbolic links: no plain file of a walk is remembered (a 200,000-file scan kept 100 bytes of
// heap per file for its whole length), and each file is still yielded once.
import { linkSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPaths, type IntakeItem } from '../../../electron/intake/expand-paths.ts';
import { createSeenEntries, type SeenEntries } from '../../../electron/intake/seen-entries.ts';

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'verdict-intake-memory-'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(relative: string, content: string): string {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
}

const keyOf = (full: string) => {
  const stats = statSync(full);
  return `${stats.dev}:${stats.ino}`;
};

async function expand(paths: string[], seen: SeenEntries): Promise<IntakeItem[]> {
  const items: IntakeItem[] = [];
  for await (const item of expandPaths(paths, { seen })) items.push(item);
  return items;
}

/** The identities of the accepted files, in the order yielded. */
const accepted = (items: IntakeItem[]) => items.flatMap((item) => (item.ok ? [`${item.dev}:${item.ino}`] : []));

describe('expandPaths: what it remembers', () => {
  it('remembers no plain file of a walk, only a hard-linked one, and still yields each file once', async () => {
    const tree = path.join(root, 'walk');
    const plain = Array.from({ length: 400 }, (_, i) => file(`walk/d${i % 8}/f${i}.txt`, `${i}`));
    const hard = file('walk/d0/hard.txt', 'hard');
    linkSync(hard, path.join(tree, 'd1', 'hard-again.txt'));
    // A link inside the folder, to a plain file of a sibling folder (listed before or after it).
    symlinkSync(plain[5]!, path.join(tree, 'd7', 'to-f5'));
    const seen = createSeenEntries();
    const items = await expand([tree], seen);
    expect(items.every((item) => item.ok)).toBe(true);
    const keys = accepted(items);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual([...plain, hard].map(keyOf).sort());
    // The hard-linked file, and the link's target only if the link came before its folder's listing.
    expect(seen.files.has(keyOf(hard))).toBe(true);
    expect([...seen.files].filter((key) => key !== keyOf(hard) && key !== keyOf(plain[5]!))).toEqual([]);
    expect(seen.listed.size).toBe(9);
    expect(seen.dirs.size).toBe(9);
  });

  it('yields a file named directly or through a link once, before or after its folder, remembering it only when it comes first', async () => {
    const dir = path.join(root, 'named');
    const target = file('named/target.txt', 'target');
    const other = file('named/other.txt', 'other');
    const link = path.join(root, 'link-to-target');
    symlinkSync(target, link);
    const both = [keyOf(other), keyOf(target)].sort();
    const orders: [string[], string[]][] = [
      // Named after the folder was listed: the listing yielded it, nothing is remembered.
      [[dir, link, target], []],
      [[dir, target], []],
      // Named first: remembered, so that the folder's listing skips it.
      [[link, dir, target], [keyOf(target)]],
      [[target, dir, link], [keyOf(target)]],
    ];
    for (const [paths, remembered] of orders) {
      const seen = createSeenEntries();
      const keys = accepted(await expand(paths, seen));
      expect(keys.sort(), paths.join(' ')).toEqual(both);
      expect([...seen.files], paths.join(' ')).toEqual(remembered);
    }
  });

  it('yields each file named directly once when no folder is given, remembering each (a watcher hands over a few at a time)', async () => {
    const a = file('loose/a.txt', 'a');
    const b = file('loose/b.txt', 'b');
    const link = path.join(root, 'loose-link');
    symlinkSync(a, link);
    const seen = createSeenEntries();
    const keys = accepted(await expand([a, b, link, a], seen));
    expect(keys).toEqual([keyOf(a), keyOf(b)]);
    expect(seen.files.size).toBe(2);
  });
});

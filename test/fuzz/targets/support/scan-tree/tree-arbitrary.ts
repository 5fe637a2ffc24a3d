// Random trees: folders (one chain of them deep), files of every body and a few
// sizes (sparse, up to just over the limit), twin names, hard links, symbolic
// links of every kind, FIFOs and sockets. Generated as indexes, then turned into
// concrete entries (EntrySpec) with clashing names and too-long paths left out,
// so a kept input says exactly which tree was built.
import fc from 'fast-check';
import { nameArb, twinNames } from './names.ts';
import { BODIES, SIZE_LIMIT, type Body, type EntryPath, type EntrySpec, type LinkTarget } from './tree-spec.ts';

/** Paths stay below PATH_MAX (4096) with room for the round's temp folder. */
const MAX_PATH_BYTES = 3800;

const bodyArb: fc.Arbitrary<Body> = fc.constantFrom(...BODIES);

/** Sparse sizes: small, past the sync upload's 10 MB, exactly at the limit (a real 100 MB upload, so rare) and one byte over. */
const sizeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(4096, 1 << 20) },
  { weight: 1, arbitrary: fc.constant(10 * 1024 * 1024 + 1) },
  { weight: 1, arbitrary: fc.constant(SIZE_LIMIT) },
  { weight: 4, arbitrary: fc.constant(SIZE_LIMIT + 1) },
);

const rawTarget = fc.oneof(
  { weight: 5, arbitrary: fc.record({ to: fc.constant('entry' as const), index: fc.nat(), absolute: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ to: fc.constantFrom('outside-file' as const, 'outside-dir' as const) }) },
  { weight: 1, arbitrary: fc.record({ to: fc.constantFrom('missing' as const, 'self' as const) }) },
  { weight: 2, arbitrary: fc.record({ to: fc.constant('up' as const), levels: fc.nat({ max: 4 }) }) },
);

/** The value once in `oneIn` times, else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) => fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const placed = <T>(extra: fc.Arbitrary<T>) => fc.tuple(fc.nat(), nameArb, extra);

export const rawTreeArb = fc.record({
  dirs: fc.array(fc.record({ parent: fc.nat(), name: nameArb }), { maxLength: 5 }),
  deep: sometimes(fc.record({ levels: fc.integer({ min: 8, max: 40 }), width: fc.integer({ min: 1, max: 200 }), leaf: bodyArb }), 5),
  files: fc.array(placed(fc.record({ body: bodyArb, size: sometimes(sizeArb, 4) })), { maxLength: 10 }),
  twins: fc.array(placed(fc.record({ pair: fc.constantFrom('fffd' as const, 'nfc' as const), bodies: fc.tuple(bodyArb, bodyArb) })), { maxLength: 2 }),
  hardlinks: fc.array(placed(fc.nat()), { maxLength: 3 }),
  specials: fc.array(placed(fc.constantFrom('fifo' as const, 'socket' as const)), { maxLength: 2 }),
  symlinks: fc.array(placed(rawTarget), { maxLength: 4 }),
  many: sometimes(fc.tuple(fc.nat(), nameArb, fc.record({ count: fc.integer({ min: 20, max: 300 }), eicarEvery: fc.integer({ min: 0, max: 40 }) })), 3),
});

export type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
type RawTree = ValueOf<typeof rawTreeArb>;
type RawTarget = ValueOf<typeof rawTarget>;

/** Collects entries, leaving out a name already taken in its folder or a path too long. */
class TreeBuilder {
  readonly entries: EntrySpec[] = [];
  readonly dirs: EntryPath[] = [[]];
  private readonly taken = new Set<string>();

  add(entry: EntrySpec): boolean {
    const key = entry.path.join('/');
    const bytes = entry.path.reduce((sum, name) => sum + 1 + Buffer.from(name, 'base64').length, 0);
    if (this.taken.has(key) || bytes > MAX_PATH_BYTES) return false;
    this.taken.add(key);
    this.entries.push(entry);
    if (entry.kind === 'dir') this.dirs.push(entry.path);
    return true;
  }

  /** A path in the folder chosen by `index` (any folder, the root included). */
  in(index: number, name: Buffer): EntryPath {
    return [...this.dirs[index % this.dirs.length]!, name.toString('base64')];
  }
}

function concreteTarget(raw: RawTarget, earlier: readonly EntrySpec[]): LinkTarget {
  if (raw.to !== 'entry') return raw;
  // A link to the root itself is an `up` link; with nothing made yet, a missing target.
  if (earlier.length === 0) return { to: 'missing' };
  return { to: 'entry', path: earlier[raw.index % earlier.length]!.path, absolute: raw.absolute };
}

/** The concrete entries of a generated tree, in the order they are made. */
export function concreteTree(raw: RawTree): EntrySpec[] {
  const tree = new TreeBuilder();
  for (const dir of raw.dirs) tree.add({ kind: 'dir', path: tree.in(dir.parent, dir.name) });
  if (raw.deep) {
    let at: EntryPath = [];
    for (let level = 0; level < raw.deep.levels; level++) {
      const path = [...at, Buffer.alloc(raw.deep.width, `d${level % 10}`).toString('base64')];
      if (!tree.add({ kind: 'dir', path })) break;
      at = path;
    }
    if (at.length > 0) tree.add({ kind: 'file', path: [...at, Buffer.from('leaf').toString('base64')], body: raw.deep.leaf });
  }
  for (const [dir, name, { body, size }] of raw.files) tree.add({ kind: 'file', path: tree.in(dir, name), body, ...(size === null ? {} : { size }) });
  for (const [dir, stem, { pair, bodies }] of raw.twins) {
    const names = twinNames(stem, pair);
    names.forEach((name, i) => tree.add({ kind: 'file', path: tree.in(dir, name), body: bodies[i]! }));
  }
  const files = tree.entries.filter((entry) => entry.kind === 'file');
  for (const [dir, name, to] of raw.hardlinks) {
    if (files.length > 0) tree.add({ kind: 'hardlink', path: tree.in(dir, name), to: files[to % files.length]!.path });
  }
  for (const [dir, name, kind] of raw.specials) tree.add({ kind, path: tree.in(dir, name) });
  if (raw.many) {
    const [dir, name, { count, eicarEvery }] = raw.many;
    tree.add({ kind: 'many', path: tree.in(dir, name), count, eicarEvery });
  }
  for (const [dir, name, target] of raw.symlinks) tree.add({ kind: 'symlink', path: tree.in(dir, name), target: concreteTarget(target, tree.entries) });
  return tree.entries;
}

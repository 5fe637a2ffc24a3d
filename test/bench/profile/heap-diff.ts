// Compares two V8 heap snapshots of one process (.heapsnapshot, as v8.writeHeapSnapshot() or
// --heapsnapshot-signal write them, each after a full collection): the node kinds (constructor
// or type) whose self size and count grew most from the first to the second; then the nodes
// allocated after the first and still alive in the second, by kind, each kind with the chains of
// retainers that hold them (what keeps them alive). Issue 18's retained-heap hunt: take one
// snapshot early in a long run and one late (SOAK_HEAP_SNAPSHOTS for the soak).
//   node --max-old-space-size=4096 test/bench/profile/heap-diff.ts BEFORE AFTER [TOP] [--files N]
import { readFile } from 'node:fs/promises';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** A snapshot with each node's kind, and its field offsets. */
interface Heap {
  snapshot: Snapshot;
  kindOf: string[];
  width: number;
  field: (name: string) => number;
}

interface Graph {
  /** Retainers of node n: retainerNode/retainerEdge[retainerStart[n] .. retainerStart[n + 1]). */
  retainerStart: Uint32Array;
  retainerNode: Uint32Array;
  retainerEdge: Uint32Array;
}

const num = (values: ArrayLike<number>, index: number): number => values[index] as number;
const str = (values: readonly string[], index: number): string => values[index] ?? '';

function kindName(type: string, name: string): string {
  if (type === 'object' || type === 'closure' || type === 'native') return `${type}:${name}`;
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'code' || type === 'hidden') return `(${type})`;
  return `(${type}) ${name.slice(0, 40)}`;
}

function heapOf(snapshot: Snapshot): Heap {
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const types = snapshot.snapshot.meta.node_types[0];
  const kindOf: string[] = [];
  for (let at = 0; at < snapshot.nodes.length; at += width) {
    kindOf.push(kindName(str(types, num(snapshot.nodes, at + typeAt)), str(snapshot.strings, num(snapshot.nodes, at + nameAt))));
  }
  return { snapshot, kindOf, width, field: (name) => fields.indexOf(name) };
}

/** Count and self size per kind. */
function totals(heap: Heap): Map<string, { count: number; size: number }> {
  const sizeAt = heap.field('self_size');
  const byKind = new Map<string, { count: number; size: number }>();
  heap.kindOf.forEach((kind, node) => {
    const entry = byKind.get(kind) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += num(heap.snapshot.nodes, node * heap.width + sizeAt);
    byKind.set(kind, entry);
  });
  return byKind;
}

function graphOf(heap: Heap): Graph {
  const { snapshot, kindOf, width } = heap;
  const meta = snapshot.snapshot.meta;
  const edgeWidth = meta.edge_fields.length;
  const edgeCountAt = heap.field('edge_count');
  const edgeToAt = meta.edge_fields.indexOf('to_node');
  const edgeTypeAt = meta.edge_fields.indexOf('type');
  const weak = meta.edge_types[0].indexOf('weak');
  const nodes = kindOf.length;
  const forEachEdge = (visit: (from: number, to: number, edge: number) => void) => {
    let edge = 0;
    for (let node = 0; node < nodes; node++) {
      const edges = num(snapshot.nodes, node * width + edgeCountAt);
      for (let i = 0; i < edges; i++, edge += edgeWidth) {
        if (num(snapshot.edges, edge + edgeTypeAt) !== weak) visit(node, num(snapshot.edges, edge + edgeToAt) / width, edge);
      }
    }
  };
  const retainerStart = new Uint32Array(nodes + 1);
  forEachEdge((_from, to) => (retainerStart[to + 1] = num(retainerStart, to + 1) + 1));
  for (let node = 0; node < nodes; node++) retainerStart[node + 1] = num(retainerStart, node + 1) + num(retainerStart, node);
  const filled = retainerStart.slice(0, nodes);
  const retainerNode = new Uint32Array(num(retainerStart, nodes));
  const retainerEdge = new Uint32Array(num(retainerStart, nodes));
  forEachEdge((from, to, edge) => {
    const slot = num(filled, to);
    retainerNode[slot] = from;
    retainerEdge[slot] = edge;
    filled[to] = slot + 1;
  });
  return { retainerStart, retainerNode, retainerEdge };
}

function edgeName(snapshot: Snapshot, edge: number): string {
  const meta = snapshot.snapshot.meta;
  const type = str(meta.edge_types[0], num(snapshot.edges, edge + meta.edge_fields.indexOf('type')));
  const name = str(snapshot.strings, num(snapshot.edges, edge + meta.edge_fields.indexOf('name_or_index')));
  if (type === 'hidden') return '[hidden]';
  // Indices (elements, a hash table's slots) as [n], so that chains through one table count together.
  return type === 'element' || /^\d+$/.test(name) ? '[n]' : name;
}

/** One chain of retainers up from `node`: the first retainer at each step, past V8's code and hidden links. */
function chainOf(heap: Heap, graph: Graph, node: number, depth: number): string {
  const steps: string[] = [];
  const visited = new Set<number>([node]);
  let at = node;
  for (let level = 0; level < depth; level++) {
    let next = -1;
    let via = 0;
    for (let r = num(graph.retainerStart, at); r < num(graph.retainerStart, at + 1); r++) {
      const from = num(graph.retainerNode, r);
      const kind = str(heap.kindOf, from);
      if (visited.has(from) || kind === '(code)' || kind === '(hidden)') continue;
      next = from;
      via = num(graph.retainerEdge, r);
      break;
    }
    if (next < 0) break;
    steps.push(`${str(heap.kindOf, next)}.${edgeName(heap.snapshot, via)}`);
    visited.add(next);
    at = next;
  }
  return steps.join(' <- ');
}

/** The nodes allocated after the first snapshot and still alive in the second (node ids only grow within one process). */
function survivors(before: Heap, after: Heap, top: number, depth: number): void {
  const beforeIdAt = before.field('id');
  let firstNew = 0;
  for (let at = beforeIdAt; at < before.snapshot.nodes.length; at += before.width) firstNew = Math.max(firstNew, num(before.snapshot.nodes, at));
  const idAt = after.field('id');
  const sizeAt = after.field('self_size');
  const nameAt = after.field('name');
  const byKind = new Map<string, number[]>();
  after.kindOf.forEach((kind, node) => {
    if (num(after.snapshot.nodes, node * after.width + idAt) <= firstNew) return;
    const list = byKind.get(kind) ?? [];
    list.push(node);
    byKind.set(kind, list);
  });
  const sizeOf = (node: number) => num(after.snapshot.nodes, node * after.width + sizeAt);
  const ranked = [...byKind].map(([kind, list]) => ({ kind, list, size: list.reduce((sum, node) => sum + sizeOf(node), 0) })).sort((a, b) => b.size - a.size);
  console.log('\nallocated after the first snapshot and alive in the second (self size, count, kind):');
  for (const { kind, list, size } of ranked.slice(0, top)) console.log(`${String(size).padStart(12)} ${String(list.length).padStart(10)}  ${kind}`);
  const graph = graphOf(after);
  for (const { kind, list } of ranked.slice(0, 8)) {
    const chains = new Map<string, number>();
    for (const node of list) {
      const chain = chainOf(after, graph, node, depth);
      chains.set(chain, (chains.get(chain) ?? 0) + 1);
    }
    const names = list.slice(0, 3).map((node) => JSON.stringify(str(after.snapshot.strings, num(after.snapshot.nodes, node * after.width + nameAt)).slice(0, 80)));
    console.log(`\n${kind}: e.g. ${names.join(', ')}`);
    for (const [chain, n] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`${String(n).padStart(10)}  <- ${chain}`);
  }
}

const args = process.argv.slice(2);
const filesAt = args.indexOf('--files');
const files = filesAt >= 0 ? Number(args.splice(filesAt, 2)[1]) : 0;
const [beforePath, afterPath, topArg] = args;
if (!beforePath || !afterPath) throw new Error('usage: heap-diff.ts BEFORE AFTER [TOP] [--files N]');
const top = Number(topArg ?? 25);
const before = heapOf(JSON.parse(await readFile(beforePath, 'utf8')) as Snapshot);
const after = heapOf(JSON.parse(await readFile(afterPath, 'utf8')) as Snapshot);
const [was, is] = [totals(before), totals(after)];
const sum = (byKind: Map<string, { size: number }>) => [...byKind.values()].reduce((total, entry) => total + entry.size, 0);
const delta = sum(is) - sum(was);
const perFile = (bytes: number) => (files > 0 ? `  (${(bytes / files).toFixed(1)} B/file)` : '');
console.log(`heap: ${(sum(was) / 2 ** 20).toFixed(1)} MiB -> ${(sum(is) / 2 ** 20).toFixed(1)} MiB (${delta >= 0 ? '+' : ''}${(delta / 2 ** 20).toFixed(2)} MiB)${perFile(delta)}`);
console.log('  size delta   count delta  kind');
const grown = [...new Set([...was.keys(), ...is.keys()])]
  .map((kind) => ({ kind, count: (is.get(kind)?.count ?? 0) - (was.get(kind)?.count ?? 0), size: (is.get(kind)?.size ?? 0) - (was.get(kind)?.size ?? 0) }))
  .sort((a, b) => b.size - a.size);
for (const row of grown.slice(0, top)) console.log(`${String(row.size).padStart(12)} ${String(row.count).padStart(12)}  ${row.kind}${perFile(row.size)}`);
survivors(before, after, top, 7);

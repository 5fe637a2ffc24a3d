// Medians, percentiles and the alternating ours/peer loop every case uses.
import type { Metric, Target } from '../bench-case.ts';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p95 of 20 values is the 19th smallest). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Runs ours and the peer `reps` times each, alternating which goes first
 * (ours, peer, peer, ours, ...), so neither always gets the warmer cache.
 */
export async function alternate<A, B>(reps: number, ours: (rep: number) => Promise<A>, peer: (rep: number) => Promise<B>): Promise<{ ours: A[]; peer: B[] }> {
  const result: { ours: A[]; peer: B[] } = { ours: [], peer: [] };
  for (let rep = 0; rep < reps; rep++) {
    if (rep % 2 === 0) {
      result.ours.push(await ours(rep));
      result.peer.push(await peer(rep));
    } else {
      result.peer.push(await peer(rep));
      result.ours.push(await ours(rep));
    }
  }
  return result;
}

/** A metric row from samples: medians, the ratio ours/peer. */
export function fromSamples(
  row: { name: string; unit: string; peerLabel?: string; target?: Target | null; note?: string; /** The ratio says nothing (e.g. both ≈ 0). */ noRatio?: boolean },
  ours: number[],
  peer?: number[],
): Metric {
  const oursMedian = median(ours);
  const peerMedian = peer ? median(peer) : null;
  return {
    name: row.name,
    unit: row.unit,
    ours: oursMedian,
    peer: peerMedian,
    ...(row.peerLabel !== undefined ? { peerLabel: row.peerLabel } : {}),
    ratio: peerMedian === null || peerMedian === 0 || row.noRatio ? null : oursMedian / peerMedian,
    target: row.target ?? null,
    samples: peer ? { ours, peer } : { ours },
    ...(row.note !== undefined ? { note: row.note } : {}),
  };
}

// The random faults of a soak run: about one request in `every` through the
// fault proxy is broken, chosen by a seeded generator so a run can be repeated.
import type { FaultProxy, Fault } from '../support/fault-proxy.ts';

const FAULTS: Fault[] = [
  { kind: 'reset' },
  { kind: 'reset-during-upload', afterBytes: 600 },
  { kind: 'reset-during-response' },
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502 },
  { kind: 'status', status: 503 },
  { kind: 'truncate-body' },
];

/** mulberry32: small, seeded, good enough to spread faults. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One rule per fault kind, each on its own random positions among the first `requests` service requests. */
export function addRandomFaults(proxy: FaultProxy, requests: number, every: number, random: () => number): number {
  const positions: number[][] = FAULTS.map(() => []);
  for (let n = 1; n <= requests; n++) {
    if (random() < 1 / every) positions[Math.floor(random() * FAULTS.length)]?.push(n);
  }
  FAULTS.forEach((fault, index) => {
    const nth = positions[index] ?? [];
    if (nth.length > 0) proxy.addRule({ path: (pathname) => pathname.startsWith('/file-scans'), nth: new Set(nth).size === nth.length ? nth : [...new Set(nth)], fault });
  });
  return positions.reduce((sum, list) => sum + list.length, 0);
}

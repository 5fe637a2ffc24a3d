// A signature database of a realistic size for the pipeline cases (issue 26): clamd's cost
// per file grows with what it loaded, so Verdict's share looks largest with the tests' tiny
// database. 100,000 MD5 hash signatures (.hdb) and 10,000 body signatures (.ndb) of random
// bytes, from a fixed seed, so every run loads the same database. None matches a bench file.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DatabaseSize {
  hashes: number;
  bodies: number;
}

/** About the number of hash and body signatures in a desktop's share of ClamAV's official set. */
export const REALISTIC_DATABASE: DatabaseSize = { hashes: 100_000, bodies: 10_000 };
/** The quick (smoke) run's: enough to load the same way, small enough to start clamd at once. */
export const QUICK_DATABASE: DatabaseSize = { hashes: 2_000, bodies: 200 };

/** mulberry32: a tiny seeded generator (the database is the same in every run). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomHex(random: () => number, bytes: number): string {
  let hex = '';
  for (let i = 0; i < bytes; i += 1) hex += Math.floor(random() * 256).toString(16).padStart(2, '0');
  return hex;
}

/** Writes `bench-hashes.hdb` and `bench-bodies.ndb` into clamd's database folder. */
export async function writeRealisticDatabase(dbDir: string, size: DatabaseSize = REALISTIC_DATABASE): Promise<void> {
  const random = seeded(26);
  const hashes: string[] = [];
  for (let i = 0; i < size.hashes; i += 1) {
    const md5 = createHash('md5').update(randomHex(random, 16)).digest('hex');
    hashes.push(`${md5}:${1_000 + Math.floor(random() * 10_000_000)}:Verdict.Bench.Hash-${i}`);
  }
  const bodies: string[] = [];
  // Body signatures of 16–47 random bytes anywhere in any file type: the matcher's automaton grows
  // with them as with real ones.
  for (let i = 0; i < size.bodies; i += 1) bodies.push(`Verdict.Bench.Body-${i}:0:*:${randomHex(random, 16 + Math.floor(random() * 32))}`);
  await writeFile(join(dbDir, 'bench-hashes.hdb'), `${hashes.join('\n')}\n`);
  await writeFile(join(dbDir, 'bench-bodies.ndb'), `${bodies.join('\n')}\n`);
}

export const describeDatabase = (size: DatabaseSize): string =>
  `a generated database of ${size.hashes.toLocaleString('en-US')} hash and ${size.bodies.toLocaleString('en-US')} body signatures`;

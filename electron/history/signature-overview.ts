// The overview's signature figures (issue 29 §5): the updates noticed within the days, and per day
// the age of the signatures in use at its end (now, for today), from the update before the window
// and those within it: two walks of the noticed-time index, however long the history.
import { MAX_SIGNATURE_UPDATES, type SignatureUpdate } from '../../shared/overview/overview.ts';
import type { HistoryDb } from './history-db.ts';
import { asUpdate, fromRow, SIGNATURE_UPDATES_SQL, type SignaturesNoticed } from './signature-updates.ts';

const DAY_MS = 86_400_000;

export interface SignatureDays {
  updates: SignatureUpdate[];
  /** Per day (as `starts` has them): updates noticed, and the age in whole days (null: unknown). */
  perDay: Array<{ updates: number; signatureAgeDays: number | null }>;
}

/** `starts`: the days' starts (UTC ms) and the end of the last one. */
export function signatureDays(h: HistoryDb, starts: readonly number[], nowMs: number): SignatureDays {
  const first = starts[0] as number;
  const end = starts[starts.length - 1] as number;
  const before = h.prepare(SIGNATURE_UPDATES_SQL.before).get(first) as unknown as Parameters<typeof fromRow>[0] | undefined;
  const within = (h.prepare(SIGNATURE_UPDATES_SQL.within).all(first, end, MAX_SIGNATURE_UPDATES) as unknown as Array<Parameters<typeof fromRow>[0]>).map(fromRow).reverse();
  // Capped: the newest kept; what was in use before the oldest kept is then the one just before it.
  let inUse: SignaturesNoticed | null = before ? fromRow(before) : null;
  let next = 0;
  const perDay: SignatureDays['perDay'] = [];
  for (let day = 0; day < starts.length - 1; day++) {
    const dayEnd = Math.min(starts[day + 1] as number, nowMs);
    let updates = 0;
    for (; next < within.length && (within[next] as SignaturesNoticed).noticedMs < (starts[day + 1] as number); next++) {
      inUse = within[next] as SignaturesNoticed;
      updates++;
    }
    perDay.push({ updates, signatureAgeDays: ageDays(inUse, dayEnd) });
  }
  return { updates: within.map(asUpdate), perDay };
}

function ageDays(inUse: SignaturesNoticed | null, atMs: number): number | null {
  if (inUse === null || inUse.signatureDate === null || inUse.noticedMs > atMs) return null;
  const built = Date.parse(inUse.signatureDate);
  if (Number.isNaN(built)) return null;
  return Math.max(0, Math.floor((atMs - built) / DAY_MS));
}

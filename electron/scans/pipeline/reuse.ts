// Reuse: a file whose content already has a recent verdict (same service) is
// finished with it and sends nothing; identical content already being uploaded
// waits for that upload's verdict (the first upload leads, the rest follow).
import type { EngineIdentity } from '../../../shared/engine/engine-identity.ts';
import { mayReuseVerdict, signatureKey } from '../../../shared/engine/verdict-reuse.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { ScanRecordPatch } from '../../history/history.ts';
import { isoNow, save, saveHeld, type Pipeline } from './context.ts';
import { tellJudged } from './judged.ts';
import { enqueue, forget, ownerOf, setOwner } from './memory.ts';
import { PENDING_REASONS, type EngineNow } from './options.ts';
import { rememberUnchanged } from './unchanged.ts';
import { saveVerdict } from './verdict.ts';

/**
 * Finished with an earlier verdict, or waiting for an identical file's upload: true.
 * False: the record is sent (it leads its content, see leadContent). `record`: as the pipeline
 * last read or wrote it (a reused verdict is written to it in the grouped commit).
 */
export function reuseOrWait(p: Pipeline, record: ScanRecord, sha256: string, backendLabel: string, digests: ScanRecordPatch, engineNow: EngineNow): boolean {
  const id = record.id;
  if (reuseEarlierVerdict(p, record, sha256, backendLabel, digests, engineNow)) return true;
  const leader = p.memory.leaders.get(sha256);
  if (leader === undefined || leader === id) return false;
  setOwner(p.memory, id, 'follower');
  const waiting = p.memory.followers.get(sha256) ?? [];
  waiting.push(id);
  p.memory.followers.set(sha256, waiting);
  // Grouped: a crash before it commits leaves the row queued, read again at the next start.
  saveHeld(p, record, { ...digests, status: 'queued', pendingReason: PENDING_REASONS.waitingForIdentical }, 'soon');
  return true;
}

/** The record is about to send this content: identical files that come meanwhile wait for its verdict. */
export function leadContent(p: Pipeline, sha256: string, id: string): void {
  p.memory.leaders.set(sha256, id);
}

/** What reuseOrWait needs to know about the engine; asked before it (the answer may take a look at the engine). */
export async function engineForReuse(p: Pipeline, serviceLabel: string): Promise<EngineNow> {
  if (p.options.settings().reuseVerdictDays <= 0 || !p.options.engineNow) return { ours: false };
  return p.options.engineNow(serviceLabel);
}

function reuseEarlierVerdict(p: Pipeline, record: ScanRecord, sha256: string, backendLabel: string, digests: ScanRecordPatch, engineNow: EngineNow): boolean {
  const id = record.id;
  const days = p.options.settings().reuseVerdictDays;
  if (days <= 0) return false;
  const since = new Date(p.now() - days * 86_400_000).toISOString();
  const earlier = p.history.findReusable(sha256, since, { backend: backendLabel });
  if (!earlier || earlier.id === id) return false;
  if (!madeByTheEngineNow(p, id, earlier, engineNow)) return false;
  finishWithReuse(p, id, earlier, digests, record);
  return true;
}

/**
 * Verdict's own service: a safe verdict stands only if the engine that would scan now made
 * it (shared/engine/verdict-reuse.ts); an unsafe one stands whatever scans now.
 */
function madeByTheEngineNow(p: Pipeline, id: string, earlier: ScanRecord, engineNow: EngineNow): boolean {
  if (!engineNow.ours) return true;
  if (engineNow.engine === null) return earlier.safe === false;
  const answer = mayReuseVerdict({ safe: earlier.safe !== false, engine: earlier.engine ?? null }, engineNow.engine);
  if (!answer.reuse) logRefusal(p, id, earlier.id, answer.why, engineNow.engine);
  return answer.reuse;
}

/** The first refusal for each reason and engine is logged; the rest are alike (each row shows its own verdict). */
function logRefusal(p: Pipeline, id: string, earlierId: string, why: string, engine: EngineIdentity): void {
  const key = `${why} ${signatureKey(engine) ?? engine.name}`;
  if (p.memory.reuseRefusalsLogged.has(key)) return;
  p.memory.reuseRefusalsLogged.add(key);
  p.options.log?.info('earlier verdict not reused (logged once for this reason and engine)', { id, earlierId, why });
}

/** `held`: the record as the pipeline last read or wrote it: the verdict waits for the grouped commit (a crash leaves the file to be read again). */
function finishWithReuse(p: Pipeline, id: string, earlier: ScanRecord, extra: ScanRecordPatch = {}, held?: ScanRecord): void {
  const tracked = p.memory.records.get(id);
  const before = tracked?.unchangedBefore;
  const judged = tracked?.judged;
  forget(p.memory, id);
  const saved = saveVerdict(p, id, {
    // The same content: the earlier record's md5 and sha1 (the fingerprint computes sha256 alone).
    ...(earlier.md5 !== null ? { md5: earlier.md5 } : {}),
    ...(earlier.sha1 !== null ? { sha1: earlier.sha1 } : {}),
    ...extra,
    status: 'completed',
    pendingReason: null,
    safe: earlier.safe,
    detailed: earlier.detailed,
    findings: earlier.findings,
    engine: earlier.engine ?? null,
    fileType: earlier.fileType,
    completedAt: isoNow(p),
    durationMs: 0,
    error: null,
    reusedFromId: earlier.reusedFromId ?? earlier.id,
    reuseKind: 'content',
  }, held, held !== undefined);
  tellJudged(saved, judged);
  // The file was read (fingerprinted) for this: it need not be next time, while it stays unchanged.
  rememberUnchanged(p, before, saved);
}

/** The leader of some content is done: its followers reuse the verdict, or go back in line. */
export function releaseLeader(p: Pipeline, sha256: string | null, id: string, outcome: ScanRecord | null): void {
  const { leaders, followers } = p.memory;
  if (!sha256 || leaders.get(sha256) !== id) return;
  leaders.delete(sha256);
  const waiting = followers.get(sha256) ?? [];
  followers.delete(sha256);
  const verdict = outcome && outcome.status === 'completed' && outcome.safe !== null ? outcome : null;
  for (const follower of waiting) {
    if (ownerOf(p.memory, follower) !== 'follower') continue;
    if (verdict) finishWithReuse(p, follower, verdict);
    else {
      save(p, follower, { status: 'queued', pendingReason: null });
      setOwner(p.memory, follower, null);
      enqueue(p.memory, follower, true);
    }
  }
  p.pump();
}

/** A leader going back in line sends its followers back too (there is no verdict to reuse yet). */
export function releaseLeaderIfRequeued(p: Pipeline, record: ScanRecord): void {
  if (record.sha256 && p.memory.leaders.get(record.sha256) === record.id) releaseLeader(p, record.sha256, record.id, null);
}

// What the recheck learns from every finished scan on the local engine path: a file judged
// clean is remembered with its identity, the signatures that judged it and when it arrived (its
// scan's queue time; a scan job's file: its mtime); one no longer clean leaves the selection. A
// recheck job's own scan keeps the file's first sighting, and one whose verdict changed is linked
// to the scan it replaces and told as a finding ("now detected as X").
import { LOCAL_LABEL } from '../backend/backend-state.ts';
import { signatureKey } from '../../shared/engine/verdict-reuse.ts';
import { TERMINAL_STATUSES, verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import type { RecheckStore, SeenFile } from '../history/recheck-candidates.ts';
import { judgedIdentity } from '../scans/pipeline/judged.ts';
import { identityNow } from './recheck-walk.ts';

/** A file a recheck judged other than clean (a threat, mostly): the most important thing Verdict tells. */
export interface RecheckFinding {
  /** The new scan (its disposition says what the threat response did). */
  record: ScanRecord;
  /** The scan that had judged it clean. */
  previousId: string;
  /** When the file arrived (ms since the epoch). */
  firstSeenMs: number;
  /** How it arrived: a scan origin (`watch`, `drop`…) or `job`. */
  origin: string;
}

export interface SeenFilesInput {
  store: Pick<RecheckStore, 'remember' | 'forget' | 'find' | 'findMany' | 'link'>;
  /** The window's start now (ms): a file first seen before it is never selected, so it is not remembered (null: the recheck is off). */
  windowStart: () => number | null;
  /** The files a running recheck job handed over, by job id and path (recheck-walk.ts). */
  selected: ReadonlyMap<number, ReadonlyMap<string, SeenFile>>;
  /**
   * Per recheck job: the signature key it judges under. Its clean verdicts are remembered under it: a
   * verdict's engine identity may still name the signatures before the reload for a while (the service
   * keeps an engine's VERSION identity for up to a minute), and the recheck must not select them again.
   */
  keys: ReadonlyMap<number, string>;
  onFinding: (finding: RecheckFinding) => void;
  onError: (error: unknown) => void;
}

export interface SeenFiles {
  offer(record: ScanRecord): void;
  /** Resolves once every record offered so far is written (tests, close). */
  idle(): Promise<void>;
}

/**
 * The key of a ClamAV verdict whose signatures are not known (clamd had not named them yet, e.g. right
 * after it started): equal to no real key, so the file is judged once more under known signatures.
 */
export const UNKNOWN_SIGNATURES = 'clamav:unknown';

/** A threat on its way to quarantine is told with its next record, which says what Verdict did. */
const settled = (record: ScanRecord) => TERMINAL_STATUSES.includes(record.status) && record.disposition !== 'quarantine_pending';

export function createSeenFiles(input: SeenFilesInput): SeenFiles {
  let queue: ScanRecord[] = [];
  let running: Promise<void> | null = null;
  const told = new Set<string>();

  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      const clean: SeenFile[] = [];
      const known = sightingsOf(batch);
      for (const record of batch) {
        try {
          const seen = await learn(record, known);
          if (seen) clean.push(seen);
        } catch (error) {
          input.onError(error);
        }
      }
      try {
        input.store.remember(clean);
      } catch (error) {
        input.onError(error);
      }
    }
  };

  /** The sightings of a batch's clean job files whose identity is known, read in one go (learn reads any other itself). */
  function sightingsOf(batch: readonly ScanRecord[]): Map<string, SeenFile | null> {
    const known = new Map<string, SeenFile | null>();
    const files = batch.flatMap((record) => {
      const file = record.jobId !== undefined && verdictOf(record) === 'safe' && !input.selected.get(record.jobId)?.has(record.path) ? judgedIdentity(record) : null;
      return file ? [file] : [];
    });
    try {
      input.store.findMany(files).forEach((seen, i) => known.set(`${files[i]!.dev}:${files[i]!.ino}`, seen));
    } catch (error) {
      input.onError(error);
    }
    return known;
  }

  async function learn(record: ScanRecord, known: ReadonlyMap<string, SeenFile | null>): Promise<SeenFile | null> {
    const jobId = record.jobId ?? null;
    const picked = jobId === null ? undefined : input.selected.get(jobId)?.get(record.path);
    const verdict = verdictOf(record);
    if (verdict === 'safe') {
      const key = (picked && jobId !== null ? input.keys.get(jobId) : undefined) ?? signatureKey(record.engine) ?? (record.engine?.name === 'clamav' ? UNKNOWN_SIGNATURES : null);
      if (key === null) return null;
      // The file its verdict judged, when the pipeline knew it (judged.ts); else as it stands now. A later change makes it differ, and then it is not rechecked as this file.
      const file = judgedIdentity(record) ?? (await identityNow(record.path));
      if (file === null) return null;
      const seenKey = `${file.dev}:${file.ino}`;
      const earlier = picked ?? (jobId === null ? null : known.has(seenKey) ? known.get(seenKey)! : input.store.find(file.dev, file.ino));
      // Seen before as this very file under these signatures (a job's unchanged file, mostly): the sighting
      // stands, and its scan is the one that read the file. Written again, it would only name the new row,
      // and rewrite a page of this store per file (an unchanged 20,000-file rescan: most of its writes).
      if (earlier && !picked && sameSighting(earlier, file, record.path, key)) return null;
      const mtimeMs = Number(BigInt(file.mtimeNs) / 1_000_000n);
      const firstSeenMs = earlier ? earlier.firstSeenMs : jobId === null ? Date.parse(record.queuedAt) : mtimeMs;
      const origin = earlier ? earlier.origin : jobId === null ? record.origin : 'job';
      // Outside the window (an old file a full scan met, or the recheck off): never selected, not kept.
      const windowStart = input.windowStart();
      if (windowStart === null || firstSeenMs < windowStart) return null;
      return { file, path: record.path, signatureKey: key, recordId: record.id, origin, firstSeenMs };
    }
    if (record.status !== 'completed') return null;
    // Judged other than clean now: out of the selection; a recheck's finding is linked and told.
    const file = picked?.file ?? (await identityNow(record.path));
    const earlier = picked ?? (file ? input.store.find(file.dev, file.ino) : null);
    if (file) input.store.forget(file);
    if (picked && earlier && !told.has(record.id)) {
      told.add(record.id);
      input.store.link({ recordId: record.id, recheckedFromId: earlier.recordId, firstSeenMs: earlier.firstSeenMs });
      input.onFinding({ record, previousId: earlier.recordId, firstSeenMs: earlier.firstSeenMs, origin: earlier.origin });
    }
    return null;
  }

  return {
    offer(record) {
      if (record.backend !== LOCAL_LABEL || !settled(record)) return;
      queue.push(record);
      running ??= drain().finally(() => {
        running = null;
      });
    },
    async idle() {
      while (running) await running;
    },
  };
}

function sameSighting(earlier: SeenFile, file: SeenFile['file'], path: string, key: string): boolean {
  const was = earlier.file;
  return (
    earlier.path === path &&
    earlier.signatureKey === key &&
    was.dev === file.dev &&
    was.ino === file.ino &&
    was.size === file.size &&
    was.mtimeNs === file.mtimeNs &&
    was.ctimeNs === file.ctimeNs
  );
}

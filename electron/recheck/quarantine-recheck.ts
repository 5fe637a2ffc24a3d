// The quarantine judged again after a signature change (issue 27 §1): each quarantined file is
// scanned by the engine in use (through the embedded service, as its own bytes from the quarantine
// folder). An entry its signatures no longer detect (a false positive the vendor fixed) says so,
// and the window offers Restore; nothing is ever restored automatically.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { QuarantineEntry } from '../../shared/quarantine/entry.ts';
import type { QuarantineJudgement, QuarantineJudgements } from '../history/recheck-candidates.ts';
import type { Quarantine } from '../quarantine/quarantine.ts';
import type { ServiceClient } from '../service-client/client.ts';

/** A quarantined file the signatures in use no longer detect. */
export interface NoLongerDetected {
  entry: QuarantineEntry;
  judgement: QuarantineJudgement;
}

export interface QuarantineRecheckInput {
  quarantine: Pick<Quarantine, 'list' | 'get' | 'storedFile'>;
  judgements: QuarantineJudgements;
  /** The embedded service's client (the engine in use), or null while it does not run. */
  client: () => Pick<ServiceClient, 'submitAndResolve'> | null;
  now: () => number;
}

export interface QuarantineRecheck {
  /** Judges every quarantined entry not yet judged under `key`; resolves with how many were judged. */
  run(key: string, signal?: AbortSignal): Promise<number>;
  /** Entries still in quarantine that their last judgement found not detected. */
  noLongerDetected(): NoLongerDetected[];
}

export function createQuarantineRecheck(input: QuarantineRecheckInput): QuarantineRecheck {
  let running: Promise<number> = Promise.resolve(0);
  async function judgeAll(key: string, signal: AbortSignal | undefined): Promise<number> {
    const client = input.client();
    if (client === null) return 0;
    let judged = 0;
    for (const entry of input.quarantine.list({ include: 'active' })) {
      if (signal?.aborted) break;
      if (entry.state !== 'quarantined' || input.judgements.get(entry.id)?.signatureKey === key) continue;
      const file = input.quarantine.storedFile(entry.id);
      if (file === null) continue;
      const size = await stat(file).then((info) => info.size, () => null);
      if (size === null) continue;
      const { scan } = await client.submitAndResolve(
        { path: file, name: entry.fileName, size },
        { mode: 'sync', externalReferenceId: `verdict/recheck-quarantine/${entry.id}/${randomUUID()}`, fileName: entry.fileName, ...(signal ? { signal } : {}) },
      );
      // No verdict (the engine failed, or the scan goes on in the background): nothing is said about the entry.
      if (scan.status !== 'completed' || !scan.result) continue;
      input.judgements.save({ entryId: entry.id, signatureKey: key, detected: !scan.result.safe, names: scan.result.findings.map((finding) => finding.name), checkedMs: input.now() });
      judged++;
    }
    return judged;
  }
  return {
    run(key, signal) {
      // One pass at a time: a second change waits for the first pass, then judges under its own key.
      running = running.catch(() => 0).then(() => judgeAll(key, signal));
      return running;
    },
    noLongerDetected() {
      const found: NoLongerDetected[] = [];
      for (const judgement of input.judgements.notDetected()) {
        const entry = input.quarantine.get(judgement.entryId);
        if (entry?.state === 'quarantined') found.push({ entry, judgement });
      }
      return found;
    },
  };
}

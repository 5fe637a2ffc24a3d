// The identity of the file a verdict judged, as the pipeline knows it: the stat taken before the
// read (in nanoseconds), when the fingerprint's fstat of the opened file (the descriptor the local
// engine scans) shows the same device, inode, size and times. Told beside the verdict's record
// (by the object subscribers receive), so the recheck's memory need not stat the file again.
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { FileIdentity } from '../../history/history.ts';
import type { FileDigests } from '../ports.ts';
import type { Pipeline } from './context.ts';
import type { TrackedRecord } from './memory.ts';

const judged = new WeakMap<ScanRecord, FileIdentity>();

/** The identity of the file this record's verdict judged, when the pipeline knew it (else undefined: stat it). */
export function judgedIdentity(record: ScanRecord): FileIdentity | undefined {
  return judged.get(record);
}

/** After the fingerprint: the record's identity before the read stands for the file read when the opened file's fstat agrees. */
export function noteOpened(p: Pipeline, id: string, opened: FileDigests['opened']): void {
  const tracked = p.memory.records.get(id);
  const file = tracked?.unchangedBefore?.file;
  if (!tracked) return;
  // Learnt again on each read (a retry): the engine tells it once it has scanned this read's descriptor.
  tracked.judgedUntilVerdict = undefined;
  if (!file) return;
  if (sameAsOpened(file, opened)) tracked.judged = file;
  else delete tracked.judged;
}

/**
 * The engine scanned the very file the record's identity before the read names (the fingerprint's fstat agreed with
 * it, and the engine said it scanned that descriptor unchanged until its verdict): no stat is needed to know it.
 */
export function unchangedUntilVerdict(tracked: TrackedRecord | undefined): boolean {
  return tracked?.judgedUntilVerdict === true && tracked.judged !== undefined && tracked.judged === tracked.unchangedBefore?.file;
}

/** The record holding a verdict: its file's identity goes with it (call before the record is told to subscribers). */
export function tellJudged(record: ScanRecord | null, file: FileIdentity | undefined): void {
  if (record && file) judged.set(record, file);
}

function sameAsOpened(file: FileIdentity, opened: FileDigests['opened']): boolean {
  return (
    file.dev === String(opened.dev) &&
    file.ino === String(opened.ino) &&
    file.size === opened.size &&
    msOf(file.mtimeNs) === opened.mtimeMs &&
    (opened.ctimeMs === undefined || msOf(file.ctimeNs) === opened.ctimeMs)
  );
}

/** Milliseconds as a plain fs.Stats gives them (seconds × 1e3 + nanoseconds / 1e6). */
function msOf(nsText: string): number {
  const ns = BigInt(nsText);
  return Number(ns / 1_000_000_000n) * 1e3 + Number(ns % 1_000_000_000n) / 1e6;
}

// What every stage of the pipeline is handed: its options, its memory, the limits,
// and the few writes they all make (a record's patch, a live-only state, the idle
// signal). Stages import each other downstream only; the three calls that close the
// loop (a later step starting an earlier one) are `pump`, `work` and `failed`,
// wired by the coordinator (pipeline.ts).
import type { ScanRecord } from '../../../shared/scans/record.ts';
import type { ScanRecordPatch } from '../../history/history.ts';
import type { ScanEvents } from '../events.ts';
import { isIdle, type Phase, type PipelineMemory } from './memory.ts';
import type { PipelineLog, PipelineOptions } from './options.ts';

export interface PipelineLimits {
  concurrency: number;
  /** No limit was asked for: a service that says how many files it takes at once (ServicePort.concurrency) gets that many. */
  serviceMaySay: boolean;
  maxProcessing: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxUnclearAttempts: number;
}

export interface Pipeline {
  readonly options: PipelineOptions;
  readonly history: PipelineOptions['history'];
  readonly events: ScanEvents;
  readonly memory: PipelineMemory;
  readonly limits: PipelineLimits;
  readonly now: () => number;
  readonly random: () => number;
  readonly log: PipelineLog | undefined;
  /** Starts what may start now (queue.ts): after anything adds work or frees a slot. */
  pump(): void;
  /** One record's work from its turn until it is handed off (upload.ts). */
  work(id: string, signal: AbortSignal): Promise<void>;
  /** What follows a failed upload or follow-up (errors.ts). */
  failed(id: string, error: unknown, signal: AbortSignal, phase: Phase): void;
}

export const isoNow = (p: Pipeline): string => new Date(p.now()).toISOString();

/** Writes a record's patch and tells subscribers. */
export function save(p: Pipeline, id: string, patch: ScanRecordPatch): ScanRecord | null {
  dropFresh(p, id);
  const record = p.history.update(id, patch);
  if (record) p.events.record(record);
  p.events.countsChanged();
  return record;
}

/**
 * Writes a patch the pipeline built to the record it holds (as last read or written), without
 * validating it again or reading it back, and tells subscribers. 'soon': a write that recovery
 * can redo (a row still uploading is looked up by reference, a local scan is scanned again) waits
 * for the next grouped commit, and subscribers hear of it once it is committed: a verdict is never
 * shown (nor a threat told) before it is on disk.
 */
export function saveHeld(p: Pipeline, record: ScanRecord, patch: ScanRecordPatch, durability: 'now' | 'soon'): ScanRecord | null {
  dropFresh(p, record.id);
  const saved = p.history.apply(record, patch, durability);
  const tell = () => {
    if (saved) p.events.record(saved, saved.id === record.id ? undefined : record.id);
    p.events.countsChanged();
  };
  if (durability === 'now') tell();
  else p.history.afterCommit(tell);
  return saved;
}

/** The record as the intake wrote it (TrackedRecord.fresh), taken once: its first turn reads no row. */
export function takeFresh(p: Pipeline, id: string): ScanRecord | undefined {
  const tracked = p.memory.records.get(id);
  const fresh = tracked?.fresh;
  // Set to undefined, not deleted: a deleted property turns the object into a dictionary, an allocation per file.
  if (fresh) tracked.fresh = undefined;
  return fresh;
}

function dropFresh(p: Pipeline, id: string): void {
  const tracked = p.memory.records.get(id);
  if (tracked?.fresh) tracked.fresh = undefined;
}

/** A state shown to subscribers but not written (it is not needed to recover). */
export function announce(p: Pipeline, record: ScanRecord, patch: Partial<ScanRecord>): void {
  p.events.record({ ...record, ...patch });
}

/** Wakes whoever waits in idle() once nothing is held and no intake runs (or the pipeline closed). */
export function notifyIdle(p: Pipeline): void {
  if (!isIdle(p.memory) && !p.memory.closed) return;
  // Idle means done and committed: the writes that wait for a grouped commit go now.
  try {
    p.history.flush();
  } catch (error) {
    p.log?.warn('history commit failed', { error: (error as Error).message });
  }
  for (const resolve of p.memory.idleWaiters.splice(0)) resolve();
}

// When Verdict notifies, and what it says. Pure: the shell collects the scans that
// finished within a short window and asks planNotifications what to show.
// A threat always notifies; clean results only when the user asked for it; a
// burst becomes one summary; failures are announced once per batch.
import { displayName } from '../../shared/display-name.ts';
import type { JobState } from '../../shared/jobs/job.ts';
import { TERMINAL_STATUSES, verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import type { Timers } from './event-batcher.ts';
import type { ShellTexts, ThreatOutcome } from './texts.ts';

export interface Notice {
  kind: 'threat' | 'clean' | 'basic-only' | 'partial' | 'failed' | 'summary' | 'job' | 'schedule' | 'self-test';
  title: string;
  body: string;
  /** The scan a click opens; null opens the main view. */
  scanId: string | null;
}

export interface NotificationPolicy {
  notifyClean: boolean;
  /** More individual notices than this in one batch become a summary. */
  maxIndividual: number;
  /** What Verdict did with an unsafe file (default: what its record's disposition says). */
  outcomeOf?: (record: Finished) => ThreatOutcome;
}

export const DEFAULT_MAX_INDIVIDUAL = 3;

export type Finished = Pick<ScanRecord, 'id' | 'fileName' | 'status' | 'safe' | 'detailed' | 'engine' | 'disposition'>;

/** What Verdict did with an unsafe file, as its record says. */
export function outcomeOfRecord(record: Finished): ThreatOutcome {
  if (record.disposition === 'quarantined') return 'quarantined';
  if (record.disposition === 'quarantine_failed') return 'quarantine-failed';
  return 'left-in-place';
}

/**
 * Whether a record has reached what it will be notified as: a threat on its way
 * to quarantine is not, its next record (quarantined, or the move failed) is.
 */
export function isSettled(record: Pick<ScanRecord, 'status' | 'disposition'>): boolean {
  return TERMINAL_STATUSES.includes(record.status) && record.disposition !== 'quarantine_pending';
}

function threatNotice(record: Finished, texts: ShellTexts, outcome: ThreatOutcome): Notice {
  const label = record.detailed?.trim() || texts.verdict.unsafe;
  // Shown through displayName(): a bidi control in the name must not disguise its extension.
  return { kind: 'threat', title: texts.threatTitle(displayName(record.fileName)), body: texts.threatBody(label, outcome), scanId: record.id };
}

function cleanNotice(record: Finished, texts: ShellTexts): Notice {
  return { kind: 'clean', title: texts.cleanTitle(displayName(record.fileName)), body: texts.cleanBody, scanId: record.id };
}

/** A clean answer of basic checks only: told as what it is (not a full scan), never as clean. */
function basicOnlyNotice(record: Finished, texts: ShellTexts): Notice {
  return { kind: 'basic-only', title: texts.basicOnlyTitle(displayName(record.fileName)), body: texts.basicOnlyBody, scanId: record.id };
}

export function planNotifications(batch: readonly Finished[], policy: NotificationPolicy, texts: ShellTexts): Notice[] {
  const threats = batch.filter((record) => verdictOf(record) === 'unsafe');
  const clean = batch.filter((record) => verdictOf(record) === 'safe');
  // Told when clean results are (the user asked to hear "no threat found"), in words of their own.
  const basic = batch.filter((record) => verdictOf(record) === 'basic-only');
  const failed = batch.filter((record) => verdictOf(record) === 'could-not-scan');
  // Scanned in part (over a scan limit, or encrypted): told always, like files that could not be scanned.
  const partial = batch.filter((record) => verdictOf(record) === 'partial');

  const outcomeOf = policy.outcomeOf ?? outcomeOfRecord;
  const individual = [
    ...threats.map((r) => threatNotice(r, texts, outcomeOf(r))),
    ...(policy.notifyClean ? [...clean.map((r) => cleanNotice(r, texts)), ...basic.map((r) => basicOnlyNotice(r, texts))] : []),
  ];
  if (individual.length > policy.maxIndividual) {
    const parts = [
      ...(threats.length > 0 ? [texts.threats(threats.length)] : []),
      ...(clean.length > 0 ? [texts.clean(clean.length)] : []),
      ...(basic.length > 0 ? [texts.basicOnly(basic.length)] : []),
      ...(partial.length > 0 ? [texts.partial(partial.length)] : []),
      ...(failed.length > 0 ? [texts.failed(failed.length)] : []),
    ];
    return [{ kind: 'summary', title: texts.summaryTitle, body: parts.join(', '), scanId: threats[0]?.id ?? null }];
  }
  if (failed.length > 0) {
    individual.push({ kind: 'failed', title: texts.failedTitle, body: texts.failedBody(failed.length), scanId: failed[0]?.id ?? null });
  }
  if (partial.length > 0) {
    individual.push({ kind: 'partial', title: texts.partialTitle, body: texts.partialBody(partial.length), scanId: partial[0]?.id ?? null });
  }
  return individual;
}

/** The end of a scan job (a saved scan's by its name): its summary (files scanned, threats, could not scan, skipped, duration); a click opens the window, where its row is. */
export function jobNotice(job: Pick<JobState, 'kind' | 'status' | 'counts' | 'activeMs' | 'savedScan'>, texts: ShellTexts): Notice | null {
  if (job.status !== 'completed' && job.status !== 'cancelled') return null;
  const title = job.savedScan ? texts.savedJobTitle(displayName(job.savedScan.name), job.status) : texts.jobTitle(job.kind, job.status);
  return { kind: 'job', title, body: texts.jobBody(job.counts, job.activeMs), scanId: null };
}

export interface FinishedScanCollector {
  /** Offer a record from a scan event; only first-time settled records (see isSettled) are kept. */
  offer(record: ScanRecord): void;
  dispose(): void;
}

/**
 * Gathers records that reached a terminal state; the first one opens a window of
 * `windowMs`, after which the whole batch goes to `onBatch`. Each scan id is
 * reported once, however often its record is re-sent.
 */
export function createFinishedScanCollector(options: { windowMs: number; timers: Timers; onBatch(batch: ScanRecord[]): void; remember?: number }): FinishedScanCollector {
  const remember = options.remember ?? 10_000;
  const reported = new Set<string>();
  let batch: ScanRecord[] = [];
  let handle: unknown = null;
  const flush = () => {
    handle = null;
    const done = batch;
    batch = [];
    if (done.length > 0) options.onBatch(done);
  };
  return {
    offer(record) {
      // A threat being moved to quarantine is reported with its next record, saying what Verdict did.
      if (!isSettled(record) || reported.has(record.id)) return;
      reported.add(record.id);
      // Bounded memory: forget the oldest ids (a Set iterates in insertion order).
      if (reported.size > remember) reported.delete(reported.values().next().value as string);
      batch.push(record);
      if (handle === null) handle = options.timers.set(flush, options.windowMs);
    },
    dispose() {
      if (handle !== null) options.timers.clear(handle);
      handle = null;
      batch = [];
    },
  };
}

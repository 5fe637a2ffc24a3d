// A protection overview (issue 29 §5): what the window asks the core for its pictures of the last
// 30 days (files scanned and threats per day, the verdict mix, the top detections), with the last
// full scan and the next scheduled one (a saved scan's too), and the signature updates the history
// noticed with the signatures' age per day. The last self-test comes from the protection view.
import { z } from 'zod';
import type { Result } from '../result.ts';
import type { Verdict } from '../scans/record.ts';

/** Days the overview covers, today included. */
export const OVERVIEW_DAYS = 30;
/** Detection names the overview lists, most frequent first. */
export const TOP_DETECTIONS = 5;
/** Signature updates the overview lists at most (a clamd switched back and forth often stays quick to read). */
export const MAX_SIGNATURE_UPDATES = 200;

/** The window's offset from UTC (minutes east), so a day is the user's day: -(new Date().getTimezoneOffset()). */
export const overviewRequestSchema = z.object({ utcOffsetMinutes: z.number().int().min(-14 * 60).max(14 * 60) }).strict();
export type OverviewRequest = z.infer<typeof overviewRequestSchema>;

export interface OverviewDay {
  /** The user's day, YYYY-MM-DD. */
  day: string;
  /** Files with a verdict that day (clean, threat, allowed, scanned in part): could-not-scan, skipped and pending are not "scanned". */
  scanned: number;
  /** Files judged a threat that day (not those the user allowed since). */
  threats: number;
  /** Changes of the signatures in use noticed that day. */
  updates: number;
  /** Whole days since the signatures in use at the day's end (now, for today) were built; null when not known. */
  signatureAgeDays: number | null;
}

/** A change of the signatures in use, as the history noticed it (ClamAV on the local engine path). */
export interface SignatureUpdate {
  /** When Verdict noticed it (ISO). */
  at: string;
  /** ClamAV's own version, e.g. 1.4.2. */
  engineVersion: string | null;
  /** The daily database's version, when clamd names one. */
  signatureVersion: number | null;
  /** When those signatures were built (ISO), when known. */
  signatureDate: string | null;
}

/** The soonest scheduled run: a quick or full scan, or a saved scan by its name. */
export type NextScheduled = { kind: 'quick' | 'full'; at: string } | { kind: 'saved'; name: string; at: string };

export interface ProtectionOverview {
  /** The first day's start (ISO). */
  since: string;
  /** OVERVIEW_DAYS days, oldest first; days without scans count 0. */
  days: OverviewDay[];
  /** Files per verdict over the same days (a finished job's clean files included), most first; verdicts with none left out. */
  verdicts: Array<{ verdict: Verdict; count: number }>;
  /** The most frequent detection names over the same days, most first. */
  topDetections: Array<{ name: string; count: number }>;
  /** The newest full scan that ended (completed or cancelled). */
  lastFullScan: { status: string; finishedAt: string; scanned: number; threats: number } | null;
  /** The signature updates noticed over the same days, oldest first (at most MAX_SIGNATURE_UPDATES, the newest). */
  signatureUpdates: SignatureUpdate[];
  /** The soonest scheduled quick, full or saved scan; null when no schedule is on. */
  nextScheduled: NextScheduled | null;
}

export interface OverviewApi {
  get(request: OverviewRequest): Promise<Result<ProtectionOverview>>;
}

export const OVERVIEW_CHANNELS = {
  'overview:get': z.tuple([overviewRequestSchema]),
} as const;

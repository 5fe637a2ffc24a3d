// A protection overview (issue 29 §5): what the window asks the core for its pictures of the last
// 30 days (files scanned and threats per day, the verdict mix, the top detections), with the last
// full scan and the next scheduled one. The engine's signature age and last self-test come from
// the protection view the window already holds.
import { z } from 'zod';
import type { Result } from '../result.ts';
import type { Verdict } from '../scans/record.ts';

/** Days the overview covers, today included. */
export const OVERVIEW_DAYS = 30;
/** Detection names the overview lists, most frequent first. */
export const TOP_DETECTIONS = 5;

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
}

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
  /** The soonest scheduled quick or full scan; null when no schedule is on. */
  nextScheduled: { kind: 'quick' | 'full'; at: string } | null;
}

export interface OverviewApi {
  get(request: OverviewRequest): Promise<Result<ProtectionOverview>>;
}

export const OVERVIEW_CHANNELS = {
  'overview:get': z.tuple([overviewRequestSchema]),
} as const;

// The free public API allows 4 lookups a minute (and 500 a day): a sliding window
// of the last four send times, and a pause after VirusTotal answers 429.
import type { VirusTotalState } from './virustotal-state.ts';

export const LOOKUPS_PER_WINDOW = 4;
export const WINDOW_MS = 60_000;
/** How long the queue pauses after a 429 that names no Retry-After. */
export const PAUSE_AFTER_429_MS = 60_000;
/** The longest pause a Retry-After may ask for (a day's quota resets within a day; the queue rechecks hourly). */
export const MAX_PAUSE_MS = 3_600_000;

/** When the next request may go (`now` or later). */
export function nextSendAt(state: Pick<VirusTotalState, 'sentAt' | 'pausedUntil'>, now: number): number {
  const recent = state.sentAt.filter((at) => at > now - WINDOW_MS);
  const windowFree = recent.length < LOOKUPS_PER_WINDOW ? now : (recent[recent.length - LOOKUPS_PER_WINDOW] as number) + WINDOW_MS;
  return Math.max(now, windowFree, state.pausedUntil);
}

export function recordSend(state: Pick<VirusTotalState, 'sentAt'>, now: number): void {
  state.sentAt = [...state.sentAt.filter((at) => at > now - WINDOW_MS), now];
}

/** After a 429: no request until Retry-After (if VirusTotal gave one) or a minute has passed. */
export function recordTooMany(state: Pick<VirusTotalState, 'pausedUntil'>, now: number, retryAfterMs: number | undefined): void {
  const pause = Math.min(Math.max(retryAfterMs ?? PAUSE_AFTER_429_MS, 1_000), MAX_PAUSE_MS);
  state.pausedUntil = Math.max(state.pausedUntil, now + pause);
}

// Which endpoint a file goes to. Interactive submissions of small files go
// sync (the user is waiting); background work and larger files go async.
import { MAX_SYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import type { ModeChoice, ScanOrigin } from '../../shared/scans/record.ts';

export type SubmissionMode = 'sync' | 'async';

const INTERACTIVE: ReadonlySet<ScanOrigin> = new Set<ScanOrigin>(['drop', 'dialog', 'cli', 'second-instance', 'rescan']);

export function isInteractive(origin: ScanOrigin): boolean {
  return INTERACTIVE.has(origin);
}

/**
 * `choice` is the per-submission choice if given, else the settings' mode.
 * `async` always wins; `sync` means sync whenever the size allows it, whatever
 * the origin; `auto` decides by origin and size.
 */
export function decideMode(input: { origin: ScanOrigin; size: number; choice: ModeChoice }): SubmissionMode {
  if (input.size > MAX_SYNC_FILE_SIZE) return 'async';
  if (input.choice === 'async') return 'async';
  if (input.choice === 'sync') return 'sync';
  return isInteractive(input.origin) ? 'sync' : 'async';
}

/** A mode decided at intake is re-checked at upload: a file that grew past the sync limit goes async. */
export function modeForUpload(decided: SubmissionMode | null, size: number, fallback: SubmissionMode): SubmissionMode {
  const mode = decided ?? fallback;
  return mode === 'sync' && size > MAX_SYNC_FILE_SIZE ? 'async' : mode;
}

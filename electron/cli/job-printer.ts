// What the `scan` CLI prints of a scan job: each of its files once (stdout), whether it came
// as an event or from the history of a run interrupted before, with its progress (stderr).
import { displayName } from '../../shared/display-name.ts';
import { coverageReasons, type CoverageReason } from '../../shared/scans/coverage.ts';
import { verdictOf, type ScanRecord } from '../../shared/scans/record.ts';
import { isDefaultExclusionSkip } from '../jobs/default-exclusions.ts';
import type { JobState } from '../jobs/job-state.ts';
import type { CliIo } from './cli-options.ts';
import { formatRecord } from './format.ts';

export interface JobPrinter {
  /** The folders the job's defaults leave out (a file skipped there is no reason for exit 2). */
  excluded(folders: readonly string[]): void;
  progress(job: JobState): void;
  /** Prints the file unless it was printed already (a continued job's file can come both ways). */
  file(record: ScanRecord): void;
  /**
   * From here on each file comes once, as an event: the ids printed so far are still checked, but no more
   * are kept (a 200,000-file job would hold every id for nothing).
   */
  settled(): void;
  count(): number;
  threats(): number;
  /** Files judged clean by basic checks only (the built-in engine; ClamAV was not available). */
  basicOnly(): number;
  /** Files scanned in part (over a scan limit, or encrypted), by their first reason. */
  partial(): ReadonlyMap<CoverageReason, number>;
  /** Files not read again: unchanged since an earlier clean verdict (ScanRecord.reuseKind). */
  unchanged(): number;
  leftOutByDefault(): number;
}

export function createJobPrinter(io: CliIo, json: boolean): JobPrinter {
  const printed = new Set<string>();
  let remembering = true;
  let count = 0;
  let found = 0;
  let walked = false;
  let threats = 0;
  let basicOnly = 0;
  const partial = new Map<CoverageReason, number>();
  let unchanged = 0;
  let leftOut = 0;
  let excluded: readonly string[] = [];
  return {
    excluded: (folders) => (excluded = folders),
    progress(job) {
      found = job.counts.found;
      walked = job.walkComplete;
    },
    file(record) {
      if (printed.has(record.id)) return;
      if (remembering) printed.add(record.id);
      count++;
      if (isDefaultExclusionSkip(record, excluded)) leftOut++;
      const verdict = verdictOf(record);
      if (verdict === 'unsafe') threats++;
      else if (verdict === 'basic-only') basicOnly++;
      else if (verdict === 'partial') {
        const reason = coverageReasons(record.findings)[0] ?? 'other-limit';
        partial.set(reason, (partial.get(reason) ?? 0) + 1);
      }
      if (record.reuseKind === 'unchanged') unchanged++;
      io.stdout(formatRecord(record, json));
      io.stderr(`[${count}/${Math.max(found, count)}${walked ? '' : '+'}] ${record.status}: ${displayName(record.fileName)}`);
    },
    settled: () => (remembering = false),
    count: () => count,
    threats: () => threats,
    basicOnly: () => basicOnly,
    partial: () => partial,
    unchanged: () => unchanged,
    leftOutByDefault: () => leftOut,
  };
}

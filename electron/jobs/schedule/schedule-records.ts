// What the scheduler remembers across restarts, per job kind, in
// `<dataDir>/schedules.json`: up to which time the due times are served (ran,
// skipped on battery, or covered by a job of the kind that ended after them), and
// the last scheduled run. A file of its own rather than the history's jobs table:
// the history can be cleared or trimmed by retention (which would make an old due
// time look unserved and start a scan), and a job row does not say which due time
// it served, nor record a due time skipped on battery. Written atomically; a
// damaged file counts as none (the schedules re-arm from now: never a burst of runs).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SCHEDULED_KINDS, scheduleSchema, type Schedule, type ScheduledKind } from '../../../shared/settings/schedules.ts';
import { removeStaleTempFiles, writeFileAtomic } from '../../settings/atomic-write.ts';

export const SCHEDULE_FILE_NAME = 'schedules.json';

/**
 * ran; skipped on battery; skipped because its files would wait for the user's consent to upload
 * to a remote service (`skippedFor` names it); covered by a job of the kind that ended after the
 * due time; failed to start (logged).
 */
export const scheduleOutcomeSchema = z.enum(['ran', 'skipped_battery', 'skipped_consent', 'covered', 'failed']);
export type ScheduleOutcome = z.infer<typeof scheduleOutcomeSchema>;

const recordSchema = z.object({
  /** The schedule these times belong to: another one re-arms the kind from the time it was set. */
  schedule: scheduleSchema,
  /** Every due time at or before this instant (ISO) is served. */
  servedUntil: z.iso.datetime(),
  lastRunAt: z.iso.datetime().nullable(),
  lastJobId: z.number().int().nullable(),
  lastOutcome: scheduleOutcomeSchema.nullable(),
  /** The remote service (its origin) a `skipped_consent` run would have sent files to. */
  skippedFor: z.string().nullable().optional(),
});
export type ScheduleRecord = z.infer<typeof recordSchema>;

const fileSchema = z.object({
  version: z.literal(1),
  kinds: z.object({ quick: recordSchema.optional(), full: recordSchema.optional() }),
});

export type ScheduleRecords = Partial<Record<ScheduledKind, ScheduleRecord>>;

export interface RecordStore {
  load(): Promise<ScheduleRecords>;
  save(records: ScheduleRecords): Promise<void>;
}

/** A kind armed now for `schedule`: only due times after `now` count. */
export const freshRecord = (schedule: Schedule, now: number): ScheduleRecord => ({
  schedule,
  servedUntil: new Date(now).toISOString(),
  lastRunAt: null,
  lastJobId: null,
  lastOutcome: null,
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function fileRecordStore(dataDir: string, onDamaged?: (error: unknown) => void): RecordStore {
  const file = join(dataDir, SCHEDULE_FILE_NAME);
  return {
    async load() {
      await removeStaleTempFiles(file);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        return {};
      }
      const parsed = fileSchema.safeParse(parseJson(text));
      if (!parsed.success) {
        onDamaged?.(parsed.error);
        return {};
      }
      const records: ScheduleRecords = {};
      for (const kind of SCHEDULED_KINDS) if (parsed.data.kinds[kind]) records[kind] = parsed.data.kinds[kind];
      return records;
    },
    save: (records) => writeFileAtomic(file, `${JSON.stringify({ version: 1, kinds: records }, null, 2)}\n`),
  };
}

/** Saves one at a time, in call order, so an older snapshot never lands after a newer one. */
export function serialStore(store: RecordStore): RecordStore & { flushed(): Promise<void> } {
  let last: Promise<void> = Promise.resolve();
  return {
    load: () => store.load(),
    save(records) {
      const snapshot = structuredClone(records);
      const saved = last.then(() => store.save(snapshot));
      last = saved.catch(() => {});
      return saved;
    },
    flushed: () => last,
  };
}

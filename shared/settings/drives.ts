// Removable drives (issue 29 §2): what Verdict does when one is mounted. `ask` (the
// default) offers a scan in a notification; `auto` scans it; `never` leaves it alone.
// A drive larger than `autoScanMaxGb` is only ever offered; a drive in `alwaysScan`
// (by filesystem UUID: *Always for this drive*) is scanned within that cap whatever `when` says.
import { z } from 'zod';

export const DRIVE_SCAN_WHEN = ['ask', 'auto', 'never'] as const;
export type DriveScanWhen = (typeof DRIVE_SCAN_WHEN)[number];

/** A filesystem UUID as the OS reports it: ext4's 36-character form, FAT's `ABCD-1234`, NTFS's 16 hex digits. */
export const filesystemUuidSchema = z.string().regex(/^[0-9A-Za-z-]{4,64}$/, 'A filesystem UUID is letters, digits and dashes.');

export const driveSettingsSchema = z
  .object({
    when: z.enum(DRIVE_SCAN_WHEN).default('ask'),
    /** Drives larger than this are offered, never scanned by themselves (issue 29: 64 GB). */
    autoScanMaxGb: z.number().int('The size must be a whole number of GB.').min(1, 'The size must be at least 1 GB.').max(100_000).default(64),
    /** *Always for this drive*: by filesystem UUID, with the label it had (shown in Settings). */
    alwaysScan: z.array(z.object({ uuid: filesystemUuidSchema, label: z.string().max(255) }).strict()).max(200).default([]),
  })
  .strict();
export type DriveSettings = z.infer<typeof driveSettingsSchema>;

export const GB = 1_000_000_000;

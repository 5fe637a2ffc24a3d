// Wire shapes of the File Scanning Service (spec section 2), as zod schemas.
// The local service builds its responses from these types and the client
// parses responses with these schemas; unknown fields are tolerated (loose).
import { z } from 'zod';
import { ENGINE_NAMES, SIGNATURE_BASES } from '../engine/engine-identity.ts';
import { EXTERNAL_REFERENCE_MAX_LENGTH, EXTERNAL_REFERENCE_PATTERN } from './limits.ts';

export const scanStatusSchema = z.enum(['processing', 'completed', 'failed']);
export type ScanStatus = z.infer<typeof scanStatusSchema>;

export const executionModeSchema = z.enum(['async', 'sync']);
export type ExecutionMode = z.infer<typeof executionModeSchema>;

export const externalReferenceIdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(EXTERNAL_REFERENCE_MAX_LENGTH, `must be at most ${EXTERNAL_REFERENCE_MAX_LENGTH} characters`)
  .regex(EXTERNAL_REFERENCE_PATTERN, 'may contain only letters, digits and . _ : / # @ -');

const hexDigest = (length: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`), `must be ${length} lowercase hex digits`);

export const fileHashSchema = z.looseObject({
  md5: hexDigest(32),
  sha1: hexDigest(40),
  sha256: hexDigest(64),
});
export type FileHash = z.infer<typeof fileHashSchema>;

/** One finding. The spec does not show the item shape; ours is name + engine (+ the signature feed that made it). */
export const findingSchema = z.looseObject({
  name: z.string(),
  engine: z.string().optional(),
  feed: z.string().optional(),
  /** The file of the user's own YARA rule that made it (a finding named `YARA.RULE…`): it reads `YARA: RULE (FILE)`. */
  ruleFile: z.string().max(4096).optional(),
});
export type Finding = z.infer<typeof findingSchema>;

export const scanResultSchema = z.looseObject({
  safe: z.boolean(),
  detailed: z.string(),
  findings: z.array(findingSchema),
});
export type ScanResult = z.infer<typeof scanResultSchema>;

/**
 * Who made a completed scan's verdict (an addition of ours, see SERVICE-DECISIONS.md):
 * ClamAV with its version and signatures, or the built-in engine. Unknown members are dropped.
 */
export const engineIdentitySchema = z.object({
  name: z.enum(ENGINE_NAMES),
  version: z.string().min(1).max(64).nullable(),
  signatures: z
    .object({
      version: z.number().int().nonnegative(),
      date: z.string().max(64).refine((text) => !Number.isNaN(Date.parse(text)), 'must be a date'),
    })
    .nullable(),
  signatureBasis: z.enum(SIGNATURE_BASES).optional(),
  databases: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  detection: z.string().min(1).max(512).optional(),
  selfTest: z.literal('failed').optional(),
});

/** Why a scan failed (decision: failed scans carry `error` and no `result`). */
export const scanErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
});
export type ScanError = z.infer<typeof scanErrorSchema>;

const isoTimestamp = z.iso.datetime({ precision: 3 });

/** The seven fields of the async submission response (spec 2.1). */
export const asyncSubmissionSchema = z.looseObject({
  id: z.string().min(1),
  external_reference_id: z.string().optional(),
  status: z.literal('processing'),
  execution_mode: z.literal('async'),
  file_name: z.string(),
  file_size: z.number().int().nonnegative(),
  submitted_at: isoTimestamp,
});
export type AsyncSubmission = z.infer<typeof asyncSubmissionSchema>;

/**
 * A scan as returned by the sync submission and both GETs. Terminal-only
 * fields are optional here; `terminalScanSchema` checks them for completed scans.
 */
export const scanSchema = z.looseObject({
  id: z.string().min(1),
  external_reference_id: z.string().optional(),
  status: scanStatusSchema,
  execution_mode: executionModeSchema,
  file_name: z.string(),
  file_size: z.number().int().nonnegative(),
  file_type: z.string().optional(),
  file_hash: fileHashSchema.optional(),
  result: scanResultSchema.optional(),
  /** Absent from other services (and unreadable ones are dropped): the verdict's engine is then unknown. */
  engine: engineIdentitySchema.nullable().optional().catch(undefined),
  error: scanErrorSchema.optional(),
  completed_at: isoTimestamp.optional(),
  scan_duration_ms: z.number().int().nonnegative().optional(),
  submitted_at: isoTimestamp,
});
export type Scan = z.infer<typeof scanSchema>;

/** A completed scan must carry its verdict; a failed one must say why. */
export const terminalScanSchema = scanSchema.superRefine((scan, ctx) => {
  if (scan.status === 'completed') {
    for (const key of ['result', 'file_type', 'file_hash', 'completed_at', 'scan_duration_ms'] as const) {
      if (scan[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'missing in a completed scan' });
    }
  } else if (scan.status === 'failed') {
    if (scan.error === undefined) ctx.addIssue({ code: 'custom', path: ['error'], message: 'missing in a failed scan' });
  } else {
    ctx.addIssue({ code: 'custom', path: ['status'], message: 'a terminal scan must be completed or failed' });
  }
});

/** The `attributes` part of a submission (spec 2.3). */
export const submissionAttributesSchema = z.looseObject({
  file_name: z.string().min(1).max(1024).optional(),
  external_reference_id: externalReferenceIdSchema.optional(),
  /**
   * Verdict's embedded service only (other services ignore unknown members): the user chose
   * "scan with basic checks only" for this file, so it need not wait for ClamAV when ClamAV is gone.
   */
  basic_checks_only: z.boolean().optional(),
});
export type SubmissionAttributes = z.infer<typeof submissionAttributesSchema>;

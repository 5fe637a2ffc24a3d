// What intake yields for each path: an accepted file with its identity at
// intake, a rejection with a stable code (the UI maps codes to localized
// text) and a plain-English message (logs, CLI), an excluded folder, or a link
// out of the folder being walked.

import type { FileIdentity } from '../history/unchanged-files.ts';
import type { LINK_OUTSIDE, LinkOutsideParams } from '../../shared/scans/exclusion.ts';
import type { RecordError } from '../../shared/scans/record.ts';
import type { FileKind, IntakeErrorCode, ScanFailureParams } from '../../shared/scans/failure.ts';

// The codes and kinds are declared with the other failure causes (shared/scans/failure.ts).
export type { FileKind, IntakeErrorCode } from '../../shared/scans/failure.ts';

export interface IntakeAccepted {
  ok: true;
  /** Absolute path as found (for a symbolic link: the link; it is read through to its target). */
  path: string;
  /** Where the content lives: `path` itself, or a link's resolved target. */
  realPath: string;
  size: number;
  mtimeMs: number;
  /** Identity of the file at intake: fingerprinting checks it still reads this file. */
  dev: number;
  ino: number;
  /**
   * The same fstat in full (nanoseconds), and when it was taken at the latest (ms since the epoch): the
   * unchanged-file skip's identity before the file is read. Absent for a file another walk yields.
   */
  identity?: { file: FileIdentity; atMs: number };
}

export interface IntakeRejected {
  ok: false;
  path: string;
  code: IntakeErrorCode;
  message: string;
  /** Which sentence `message` is and what it names, so the UI can word it in its language. */
  params: ScanFailureParams;
  /** For `not_regular_file`: what it is instead. */
  kind?: FileKind;
  /** For `too_large`: the size found. */
  size?: number;
}

/**
 * A folder not walked because an exclusion covers it: one item stands for
 * everything in it (listed as skipped, not silently dropped).
 */
export interface IntakeExcludedFolder {
  ok: false;
  excluded: true;
  path: string;
  /** The exclusion's reason code, plain-English text and parameters, as the caller's check gave them. */
  code: string;
  message: string;
  params?: RecordError['params'];
}

/**
 * A symbolic link met while walking a folder whose real target lies outside that folder:
 * not followed, nothing opened through it; listed as skipped (link-outside.ts).
 */
export interface IntakeLinkOutside {
  ok: false;
  excluded: true;
  path: string;
  code: typeof LINK_OUTSIDE;
  message: string;
  params: LinkOutsideParams;
}

export type IntakeItem = IntakeAccepted | IntakeRejected | IntakeExcludedFolder | IntakeLinkOutside;

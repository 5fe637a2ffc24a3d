// What the local service needs from a malware engine: scan one file that is
// already on disk and say what was found. An engine that cannot decide throws
// (or rejects) an EngineError; the service then fails the scan, never calls it safe.

export interface EngineFinding {
  /** Signature name as the engine reports it, e.g. `Eicar-Signature` or `Win.Test.Clam.UNOFFICIAL`. */
  name: string;
}

export interface EngineVerdict {
  safe: boolean;
  /** Label for result.detailed, e.g. `clean`, `infected`, `clean (basic checks only)`. */
  detailed: string;
  findings: EngineFinding[];
}

export interface ScanEngine {
  /** `clamd` or `builtin`; reported in findings and logs. */
  readonly name: string;
  scan(filePath: string, signal?: AbortSignal): Promise<EngineVerdict>;
  close?(): Promise<void>;
}

/** The engine could not give a verdict (unreachable, timed out, size limit, bad reply). */
export class EngineError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
  }
}

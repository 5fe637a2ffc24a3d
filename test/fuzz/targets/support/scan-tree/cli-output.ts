// Reads a run's output as README documents it: one JSON object per line on
// stdout (`path` and, when the path is not UTF-8, `pathBytes`: base64 of its
// raw bytes), and the summary line on stderr.
export interface OutputLine {
  /** The path's raw bytes: `pathBytes` decoded, else the UTF-8 of `path`. */
  bytes: Buffer;
  path: string;
  status: string;
  verdict: string;
  /** The error's code, for a message (`too_large`, `link_outside`, …). */
  error: string | null;
}

export interface Summary {
  scanned: number;
  threats: number;
  couldNotScan: number;
  skipped: number;
}

export interface ParsedOutput {
  lines: OutputLine[];
  /** Lines that break the documented shape. */
  malformed: string[];
  /** The summary line's counts; 'nothing' for "No files found to scan."; null when there is neither. */
  summary: Summary | 'nothing' | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function isUtf8(bytes: Buffer): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with one parsed line, or null. */
function lineProblem(value: Record<string, unknown>): string | null {
  if (typeof value.path !== 'string' || typeof value.status !== 'string' || typeof value.verdict !== 'string') return 'no path, status or verdict';
  if (value.pathBytes === undefined) return null;
  if (typeof value.pathBytes !== 'string') return 'pathBytes is not a string';
  const bytes = Buffer.from(value.pathBytes, 'base64');
  if (bytes.toString('base64') !== value.pathBytes) return 'pathBytes is not canonical base64';
  return isUtf8(bytes) ? 'pathBytes on a path that is valid UTF-8' : null;
}

// `N scanned (B with basic checks only, not a full scan), …`: the part in brackets is among the N.
const SUMMARY = /^Custom scan \w+: (\d+) scanned(?: \([^)]*\))?, (\d+) threats?, (\d+) could not scan, (\d+) skipped, in /m;

export function parseOutput(stdout: Buffer, stderr: string): ParsedOutput {
  const lines: OutputLine[] = [];
  const malformed: string[] = [];
  for (const text of stdout.toString('utf8').split('\n')) {
    if (text === '') continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
    } catch {
      malformed.push(`not JSON: ${text.slice(0, 200)}`);
      continue;
    }
    const problem = lineProblem(value);
    if (problem) {
      malformed.push(`${problem}: ${text.slice(0, 200)}`);
      continue;
    }
    const path = value.path as string;
    const bytes = typeof value.pathBytes === 'string' ? Buffer.from(value.pathBytes, 'base64') : Buffer.from(path, 'utf8');
    const error = (value.error as { code?: unknown } | null)?.code;
    lines.push({ bytes, path, status: value.status as string, verdict: value.verdict as string, error: typeof error === 'string' ? error : null });
  }
  const counts = SUMMARY.exec(stderr);
  const summary = counts
    ? { scanned: Number(counts[1]), threats: Number(counts[2]), couldNotScan: Number(counts[3]), skipped: Number(counts[4]) }
    : /^No files found to scan\.$/m.test(stderr)
      ? 'nothing'
      : null;
  return { lines, malformed, summary };
}

/** A path for a message: UTF-8 shown as text, other bytes as \xNN; JSON-quoted, so a newline stays visible. */
export function shownPath(bytes: Buffer, root?: Buffer): string {
  const below = root && bytes.length > root.length && bytes.subarray(0, root.length).equals(root) ? bytes.subarray(root.length + 1) : bytes;
  if (isUtf8(below)) return JSON.stringify(below.toString('utf8'));
  let text = '';
  for (const byte of below) text += byte < 0x80 ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  return JSON.stringify(text).replaceAll('\\\\x', '\\x');
}

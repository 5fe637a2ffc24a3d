// The bytes of clamd's socket protocol: where clamd listens, how commands and
// INSTREAM chunks are framed, and what its replies mean. No I/O here.
import { isCoverageOnly } from '../../../shared/scans/coverage.ts';
import { DETAILED_LABELS, EngineError, type EngineVerdict } from '../engine.ts';

/** A clamd listener: a Unix socket (LocalSocket) or TCP (TCPAddr/TCPSocket). */
export type ClamdEndpoint = { socketPath: string } | { host: string; port: number };

/** clamd's default TCPSocket. */
export const CLAMD_DEFAULT_PORT = 3310;

/** `unix:/run/clamav/clamd.ctl` or `tcp:127.0.0.1:3310`, for logs and error messages. */
export function endpointLabel(endpoint: ClamdEndpoint): string {
  return 'socketPath' in endpoint ? `unix:${endpoint.socketPath}` : `tcp:${endpoint.host}:${endpoint.port}`;
}

// The `z` prefix asks for NUL-terminated commands and replies, so a reply can
// never be confused with a newline inside a signature name or an error text.
export const COMMANDS = {
  ping: Buffer.from('zPING\0'),
  version: Buffer.from('zVERSION\0'),
  instream: Buffer.from('zINSTREAM\0'),
} as const;

/** A zero-length chunk ends an INSTREAM upload. */
export const END_OF_STREAM = Buffer.alloc(4);

/** The 4-byte big-endian length that precedes each INSTREAM chunk. */
export function chunkHeader(length: number): Buffer {
  const header = Buffer.allocUnsafe(4);
  header.writeUInt32BE(length, 0);
  return header;
}

/** A reply split into its NUL-terminated messages (several under AllMatchScan). */
export function replyMessages(raw: string): string[] {
  return raw
    .split('\0')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Enough of an unexpected reply to diagnose it, without flooding a log or a scan record. */
export function quoteReply(raw: string): string {
  const printable = raw.replace(/[^\x20-\x7e]/g, (c) => (c === '\0' ? '\\0' : '?'));
  return JSON.stringify(printable.length > 120 ? `${printable.slice(0, 120)}…` : printable);
}

// `stream: <name> FOUND`; with ExtendedDetectionInfo clamd appends `(<hash>:<size>)` to the name.
const FOUND = /^stream: (.+?)(?:\([0-9a-f]{32,64}:\d+\))? FOUND$/;
const OK = /^stream: OK$/;
const ERROR = / ERROR$/;

/**
 * Turns the complete reply to zINSTREAM into a verdict. Anything that is not
 * an unambiguous OK or FOUND throws: a scan that did not happen is never clean.
 */
export function parseInstreamReply(raw: string): EngineVerdict {
  const messages = replyMessages(raw);
  if (messages.length === 0) {
    throw new EngineError('engine_unavailable', 'clamd closed the connection without a reply');
  }
  const findings: { name: string }[] = [];
  let ok = false;
  for (const message of messages) {
    if (ERROR.test(message)) {
      const reason = message.replace(/^stream:\s*/, '').replace(ERROR, '').trim();
      if (/size limit exceeded/i.test(reason)) {
        throw new EngineError('engine_size_limit', `clamd refused the file: ${reason} (raise StreamMaxLength in clamd.conf)`);
      }
      throw new EngineError('engine_error', `clamd reported an error: ${reason}`);
    }
    const found = FOUND.exec(message);
    if (found?.[1]) findings.push({ name: found[1] });
    else if (OK.test(message)) ok = true;
    else throw new EngineError('engine_error', `unexpected reply from clamd: ${quoteReply(raw)}`);
  }
  // Only limit or encryption heuristics: scanned in part, never clean (and not a threat either).
  if (findings.length > 0) return { safe: false, detailed: isCoverageOnly(findings) ? DETAILED_LABELS.scannedInPart : DETAILED_LABELS.infected, findings };
  if (ok && messages.length === 1) return { safe: true, detailed: DETAILED_LABELS.clean, findings: [] };
  throw new EngineError('engine_error', `unexpected reply from clamd: ${quoteReply(raw)}`);
}

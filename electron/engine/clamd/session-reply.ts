// clamd's replies inside an IDSESSION, `<id>: <subject>: <result>` NUL-terminated, read
// into typed verdicts. No I/O. The subject is `fd[N]` for FILDES and `stream` for INSTREAM;
// the result is parsed by the INSTREAM reply parser the local service already uses.
import { ENGINE_ERROR_CODES, EngineError, type EngineErrorCode } from '../engine.ts';
import { parseInstreamReply, quoteReply } from '../instream/clamd-protocol.ts';

/** How a file reached clamd. */
export type ClamdTransport = 'fildes' | 'instream';

export type ClamdErrorCode = EngineErrorCode | 'file_changed';

/** What clamd said about one file; an error is never a verdict of clean. */
export type ClamdVerdict =
  | { kind: 'clean'; via: ClamdTransport }
  | { kind: 'found'; signatures: string[]; via: ClamdTransport }
  | { kind: 'error'; code: ClamdErrorCode; message: string };

export function errorVerdict(code: ClamdErrorCode, message: string): ClamdVerdict {
  return { kind: 'error', code, message };
}

const NUMBERED = /^(\d{1,10}): ([^]*)$/;

/** `<id>: <reply>` → its parts; null when the message carries no request number. */
export function numberedReply(raw: string): { id: number; reply: string } | null {
  const match = NUMBERED.exec(raw);
  if (match === null) return null;
  return { id: Number(match[1]), reply: (match[2] ?? '').trim() };
}

/**
 * clamd's answer to a FILDES that arrived without its descriptor (clamd/session.c,
 * dispatch_command): it then ends the session. Seen when something between Verdict and
 * clamd drops the descriptor; an older wording is accepted too.
 */
export function isNoDescriptorReply(reply: string): boolean {
  return /^(?:No file descriptor received|FILDES: didn't receive file descriptor)\.? ERROR$/.test(reply);
}

/** clamd refused an INSTREAM over StreamMaxLength; it ends the session after this. */
export function isSizeLimitReply(reply: string): boolean {
  return /size limit exceeded\.? ERROR$/i.test(reply);
}

const SUBJECT = /^(?:fd\[\d{1,10}\]|stream): /;

/**
 * An error about the session rather than the file, which clamd sends just before it ends
 * the session (no subject: not `fd[N]: …` or `stream: …`), e.g. "PROTOCOL ERROR: ancillary
 * data sent without FILDES." while it shuts down, "Error processing command.", "UNKNOWN
 * COMMAND". No scan happened: the file is sent again on the next session.
 */
export function isSessionErrorReply(reply: string): boolean {
  if (SUBJECT.test(reply) || isNoDescriptorReply(reply) || isSizeLimitReply(reply)) return false;
  return / ERROR$/.test(reply) || reply === 'UNKNOWN COMMAND';
}

/** What clamd writes (newline-terminated, unnumbered) when it ends a session for want of commands. */
export function isReadTimeoutNotice(text: string): boolean {
  return /COMMAND READ TIMED OUT/.test(text);
}

const FD_SUBJECT = /^fd\[\d{1,10}\]: /;

/**
 * One scan's reply (without its number) as a verdict. Anything that is not an unambiguous
 * OK or FOUND is an error: a scan that did not happen is never clean.
 */
export function scanReplyVerdict(reply: string, via: ClamdTransport): ClamdVerdict {
  // The FILDES subject in the INSTREAM form, so one parser reads both.
  const asStream = FD_SUBJECT.test(reply) ? reply.replace(FD_SUBJECT, 'stream: ') : reply;
  try {
    const verdict = parseInstreamReply(`${asStream}\0`);
    return verdict.safe ? { kind: 'clean', via } : { kind: 'found', signatures: verdict.findings.map((finding) => finding.name), via };
  } catch (error) {
    if (error instanceof EngineError && (ENGINE_ERROR_CODES as readonly string[]).includes(error.code)) {
      return errorVerdict(error.code as EngineErrorCode, error.message);
    }
    return errorVerdict('engine_error', `unexpected reply from clamd: ${quoteReply(reply)}`);
  }
}

/** What a scan's reply means for its session: a verdict (the session goes on, unless clamd refused the stream), or none. */
export type ScanReplyOutcome =
  | { kind: 'verdict'; verdict: ClamdVerdict; sessionEnds: boolean }
  | { kind: 'fildes-refused' }
  | { kind: 'session-error' };

export function scanReplyOutcome(reply: string, via: ClamdTransport): ScanReplyOutcome {
  if (isNoDescriptorReply(reply)) return { kind: 'fildes-refused' };
  if (isSessionErrorReply(reply)) return { kind: 'session-error' };
  return { kind: 'verdict', verdict: scanReplyVerdict(reply, via), sessionEnds: isSizeLimitReply(reply) };
}

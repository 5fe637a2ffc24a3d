// The bytes of clamd's sessions (zIDSESSION … zEND): the commands, and the
// request number clamd puts before each reply in a session. No I/O here.
import { COMMANDS } from './clamd-protocol.ts';

export const SESSION_COMMANDS = {
  /** Starts the session and its first scan in one write. */
  startAndInstream: Buffer.concat([Buffer.from('zIDSESSION\0'), COMMANDS.instream]),
  instream: COMMANDS.instream,
  /** Starts the session with a PING: a clamd that has sessions answers `1: PONG`. */
  startAndPing: Buffer.concat([Buffer.from('zIDSESSION\0'), COMMANDS.ping]),
  end: Buffer.from('zEND\0'),
} as const;

const NUMBERED = /^(\d+): ([^]*)$/;

/**
 * One NUL-terminated reply message in a session, `<id>: <reply>`: the reply
 * (trimmed) when it answers request `id`, else null (not clamd, or out of step).
 */
export function sessionMessage(raw: string, id: number): string | null {
  const match = NUMBERED.exec(raw);
  if (match === null || Number(match[1]) !== id) return null;
  return (match[2] ?? '').trim();
}

// The clamd commands Verdict's own clamd needs beyond scanning: PING to know it
// is up, VERSION to know who it is, RELOAD after a signature update.
import { clamdRequest } from '../instream/clamd-connection.ts';
import { replyMessages, quoteReply, type ClamdEndpoint } from '../instream/clamd-protocol.ts';
import { EngineError } from '../engine.ts';

async function command(endpoint: ClamdEndpoint, name: string, timeoutMs: number): Promise<string> {
  const reply = await clamdRequest({ endpoint, command: Buffer.from(`z${name}\0`), connectTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs });
  const [message] = replyMessages(reply);
  if (message === undefined) throw new EngineError('engine_unavailable', `clamd closed the connection without answering ${name}`);
  return message;
}

/** True when clamd answers PONG within `timeoutMs`. */
export async function clamdAnswers(endpoint: ClamdEndpoint, timeoutMs = 2_000): Promise<boolean> {
  try {
    return (await command(endpoint, 'PING', timeoutMs)) === 'PONG';
  } catch {
    return false;
  }
}

/** clamd's VERSION line, e.g. `ClamAV 1.4.6/27467/Mon Nov 24 09:21:02 2026`. */
export async function clamdVersion(endpoint: ClamdEndpoint, timeoutMs = 5_000): Promise<string> {
  const message = await command(endpoint, 'VERSION', timeoutMs);
  if (!message.startsWith('ClamAV ')) throw new EngineError('engine_error', `clamd did not answer VERSION: ${quoteReply(message)}`);
  return message;
}

/** Asks clamd to load its database folder again; it keeps scanning with the old one meanwhile. */
export async function clamdReload(endpoint: ClamdEndpoint, timeoutMs = 5_000): Promise<void> {
  const message = await command(endpoint, 'RELOAD', timeoutMs);
  if (message !== 'RELOADING') throw new EngineError('engine_error', `clamd did not accept RELOAD: ${quoteReply(message)}`);
}

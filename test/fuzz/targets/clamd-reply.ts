// clamd's reply to zINSTREAM (engines/clamd-protocol.ts): a verdict only for an
// unambiguous OK or FOUND; anything else an EngineError with a known code.
import fc from 'fast-check';
import { parseInstreamReply, replyMessages } from '../../../electron/engine/instream/clamd-protocol.ts';
import { ENGINE_ERROR_CODES, EngineError } from '../../../electron/engine/engine.ts';
import { expectThat, FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { trickyString } from './support/strings.ts';

const PIECES = ['stream: ', 'stream:', 'OK', ' OK', 'FOUND', ' FOUND', ' ERROR', 'ERROR', '\0', '\n', ' ', 'Eicar-Test-Signature', 'Win.Test.EICAR_HDB-1', '(', ')', ':', 'INSTREAM size limit exceeded', 'UNKNOWN COMMAND', 'PONG'];
const hash = fc.tuple(fc.stringMatching(/^[0-9a-f]{32,64}$/), fc.nat()).map(([digest, size]) => `(${digest}:${size})`);

export const clamdReply: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, hash, trickyString(2)), { maxLength: 10 }).map((pieces) => pieces.join('')),
  fc.constantFrom('stream: OK\0', 'stream: Eicar FOUND\0', 'stream: a FOUND\0stream: b FOUND\0', 'INSTREAM size limit exceeded. ERROR\0'),
  fc.string({ unit: 'binary', maxLength: 80 }),
);

export const clamdReplyTarget: FuzzTarget<string> = {
  name: 'clamd-reply',
  about: 'parseInstreamReply: clean only for exactly one "stream: OK", findings only from FOUND lines, else an EngineError',
  smoke: { runs: 5000 },
  async: false,
  async open() {
    return {
      arbitrary: clamdReply,
      check(raw) {
        let verdict: ReturnType<typeof parseInstreamReply>;
        try {
          verdict = parseInstreamReply(raw);
        } catch (error) {
          if (!(error instanceof EngineError) || !(ENGINE_ERROR_CODES as readonly string[]).includes(error.code)) throw new FuzzFinding(`not an EngineError: ${String(error)}`, { cause: error });
          expectThat(error.message.length > 0 && error.message.length < 1000, 'error message empty or unbounded');
          return;
        }
        const messages = replyMessages(raw);
        if (verdict.safe) {
          expectThat(messages.length === 1 && messages[0] === 'stream: OK', () => `clean verdict from ${JSON.stringify(raw)}`);
          expectThat(verdict.findings.length === 0, 'clean verdict with findings');
        } else {
          expectThat(verdict.findings.length > 0 && verdict.findings.every((finding) => finding.name.length > 0), 'unsafe verdict without a named finding');
          expectThat(messages.every((message) => message.endsWith(' FOUND') || message === 'stream: OK'), () => `unsafe verdict from ${JSON.stringify(raw)}`);
        }
      },
      close: async () => {},
    };
  },
};

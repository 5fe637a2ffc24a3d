// clamd's replies inside an IDSESSION (electron/engine/clamd/session-reply.ts), read as the
// session client reads each NUL-terminated message: its request number, then what it means
// for a scan. Clean only for exactly `<id>: fd[N]: OK` or `<id>: stream: OK`; findings only
// from a FOUND reply; anything else an error verdict or the end of the session, never a throw.
import fc from 'fast-check';
import { numberedReply, scanReplyOutcome } from '../../../electron/engine/clamd/session-reply.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { trickyString } from './support/strings.ts';

const PIECES = [
  '1', '12', '4294967296', ': ', ':', ' ', 'fd[', 'fd[10]', ']', 'stream', 'OK', ' OK', ' FOUND', ' ERROR', 'ERROR', 'PONG',
  'Eicar-Test-Signature.UNOFFICIAL', '(44d88612fea8a8f36de82e1278abb02f:68)', 'No file descriptor received.', "FILDES: didn't receive file descriptor.",
  'INSTREAM size limit exceeded.', 'PROTOCOL ERROR: ancillary data sent without FILDES.', 'UNKNOWN COMMAND', 'COMMAND READ TIMED OUT', '\n', '\t',
];

export const sessionMessage: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, trickyString(2)), { maxLength: 10 }).map((pieces) => pieces.join('')) },
  fc.constantFrom('1: fd[10]: OK', '2: stream: OK', '3: fd[11]: Eicar-Test-Signature.UNOFFICIAL FOUND', '4: No file descriptor received. ERROR', '5: INSTREAM size limit exceeded. ERROR', '6: PONG'),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

export const clamdSessionReplyTarget: FuzzTarget<{ message: string; via: 'fildes' | 'instream' }> = {
  name: 'clamd-session-reply',
  about: 'numberedReply + scanReplyOutcome: clean only for "<id>: fd[N]: OK" or "<id>: stream: OK", findings only from FOUND, never a throw',
  smoke: { runs: 5000 },
  async: false,
  async open() {
    return {
      arbitrary: fc.record({ message: sessionMessage, via: fc.constantFrom('fildes' as const, 'instream' as const) }),
      check({ message, via }) {
        const numbered = numberedReply(message);
        if (numbered === null) return;
        expectThat(Number.isSafeInteger(numbered.id) && numbered.id >= 0, () => `request number ${numbered.id} from ${JSON.stringify(message)}`);
        const outcome = scanReplyOutcome(numbered.reply, via);
        if (outcome.kind !== 'verdict') return;
        const { verdict } = outcome;
        if (verdict.kind === 'clean') {
          expectThat(/^(?:fd\[\d+\]|stream): OK$/.test(numbered.reply), () => `clean verdict from ${JSON.stringify(message)}`);
          expectThat(verdict.via === via, 'a verdict names another transport');
        } else if (verdict.kind === 'found') {
          expectThat(numbered.reply.endsWith(' FOUND') && verdict.signatures.length > 0 && verdict.signatures.every((name) => name.length > 0), () => `found verdict from ${JSON.stringify(message)}`);
        } else {
          expectThat(verdict.message.length > 0 && verdict.message.length < 1000, 'error message empty or unbounded');
        }
      },
      close: async () => {},
    };
  },
};

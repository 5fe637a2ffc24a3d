// The webhook secret (webhooks/signature.ts), from --webhook-secret: a signing
// key of at least one byte, or an Error that says what is wrong; and signing
// with any key works.
import fc from 'fast-check';
import { signWebhook, webhookKeyOf } from '../../../electron/local-service/webhooks/signature.ts';
import { expectThat, FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { hostileString } from './support/strings.ts';

const base64ish = fc.stringMatching(/^[A-Za-z0-9+/=_\-\s]{0,48}$/);
const secret = fc.oneof(
  hostileString(),
  base64ish.map((tail) => `whsec_${tail}`),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`),
  fc.tuple(fc.constantFrom('whsec_', 'WHSEC_', 'whsec', ' whsec_'), hostileString()).map(([prefix, tail]) => prefix + tail),
);

export const webhookSecretTarget: FuzzTarget<string> = {
  name: 'webhook-secret',
  about: 'webhookKeyOf: a non-empty key or an Error with a message; signWebhook signs with any key it gives',
  smoke: { runs: 5000 },
  async: false,
  async open() {
    return {
      arbitrary: secret,
      check(text) {
        let key: Buffer;
        try {
          key = webhookKeyOf(text);
        } catch (error) {
          const tail = text.slice(6);
          if (!(error instanceof Error) || error.message.length === 0 || (tail.length >= 8 && error.message.includes(tail))) {
            throw new FuzzFinding(`not a clear error (or one that echoes the secret): ${String(error)}`, { cause: error });
          }
          return;
        }
        expectThat(key.length > 0, 'empty signing key');
        if (text.startsWith('whsec_')) expectThat(key.equals(Buffer.from(text.slice(6), 'base64')), 'base64 secret not decoded');
        else expectThat(key.equals(Buffer.from(text, 'utf8')), 'raw secret not used as its UTF-8 bytes');
        expectThat(/^v1,[A-Za-z0-9+/]{43}=$/.test(signWebhook(key, 'msg_1', 1_700_000_000, '{}')), 'malformed signature');
      },
      close: async () => {},
    };
  },
};

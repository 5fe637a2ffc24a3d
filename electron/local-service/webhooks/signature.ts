// Standard Webhooks signing (https://www.standardwebhooks.com): the signature
// is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
// Secrets: `whsec_<base64>` (the spec's format) is base64-decoded to the key;
// any other string is used as raw UTF-8 bytes (`format: "raw"` in the
// reference libraries).
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function webhookKeyOf(secret: string): Buffer {
  if (secret.startsWith(PREFIX)) {
    const encoded = secret.slice(PREFIX.length);
    if (!BASE64.test(encoded) || encoded.length % 4 !== 0) throw new Error('A whsec_ webhook secret must be followed by base64.');
    return Buffer.from(encoded, 'base64');
  }
  if (secret.length === 0) throw new Error('The webhook secret must not be empty.');
  return Buffer.from(secret, 'utf8');
}

export function signWebhook(key: Buffer, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

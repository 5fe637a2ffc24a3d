// Bearer authentication. Each configured API key is one integration; the
// service only ever keeps a hash of a key, and stores a hash-derived
// integration id (never the key) next to the scans.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type AuthOutcome = { ok: true; integrationId: string } | { ok: false; reason: 'missing' | 'unknown' };

export interface ApiKeyring {
  authenticate(req: IncomingMessage): AuthOutcome;
}

/** Keys go on the wire in a header: printable ASCII without spaces, and long enough to guess badly. */
export const API_KEY_PATTERN = /^[\x21-\x7e]{8,512}$/;

const digestOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** Stable across restarts, so scans stay with their integration; reveals nothing usable about the key. */
export function integrationIdOf(key: string): string {
  return createHash('sha256').update('verdict-local-service/integration/v1\0').update(key, 'utf8').digest('hex').slice(0, 32);
}

/**
 * A key with a fixed integration id: the embedded service gets a fresh key every
 * run, but its scans must stay one integration across restarts so crash recovery
 * finds them by external reference.
 */
export interface PinnedApiKey {
  key: string;
  integrationId: string;
}

export type ApiKeyConfig = string | PinnedApiKey;

export function createApiKeyring(keys: readonly ApiKeyConfig[]): ApiKeyring {
  if (keys.length === 0) throw new Error('At least one API key is required.');
  const known = keys.map((entry) => {
    const key = typeof entry === 'string' ? entry : entry.key;
    if (!API_KEY_PATTERN.test(key)) throw new Error('An API key must be 8 to 512 printable ASCII characters without spaces.');
    return { digest: digestOf(key), integrationId: typeof entry === 'string' ? integrationIdOf(key) : entry.integrationId };
  });

  return {
    authenticate(req) {
      const header = req.headers.authorization;
      const match = header === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
      if (!match?.[1]) return { ok: false, reason: 'missing' };
      // Equal-length digests make the comparison constant-time whatever was sent.
      const presented = digestOf(match[1]);
      let integrationId: string | null = null;
      for (const entry of known) {
        if (timingSafeEqual(presented, entry.digest)) integrationId = entry.integrationId;
      }
      return integrationId === null ? { ok: false, reason: 'unknown' } : { ok: true, integrationId };
    },
  };
}

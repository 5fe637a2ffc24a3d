// createVirusTotal(): the second opinion by hash (issue 29 §4). The user's API key
// lives in the OS keychain under its own account and in this process only; each
// key learned joins the log's secret list. Lookups go through the queue
// (lookup-queue.ts); known and unknown answers are kept 15 minutes, so opening
// the same file again spends none of the 4 lookups a minute.
import type { KeyStatus } from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { sha256Schema, type VirusTotalAnswer, type VirusTotalApi } from '../../shared/virustotal/lookup.ts';
import type { Keychain } from '../keychain/keychain.ts';
import { systemClock, type VirusTotalClock } from './clock.ts';
import { closeQueue, enqueue, type QueueDeps } from './lookup-queue.ts';
import { getFileReport, VIRUSTOTAL_BASE_URL } from './v3-client.ts';
import { newVirusTotalState } from './virustotal-state.ts';

/** Its own keychain account, beside the scanning service's (whose accounts are origins or `api-key`). */
export const VIRUSTOTAL_ACCOUNT = 'virustotal-api-key';
const CACHE_MS = 15 * 60_000;

/** For tests only (never a setting): a stand-in for the v3 API, and a clock they move. */
export interface VirusTotalTuning {
  baseUrl?: string;
  clock?: VirusTotalClock;
}

export interface VirusTotalOptions extends VirusTotalTuning {
  keychain: Keychain;
  /** Each key read or set, so the logs scrub it. */
  onSecret(key: string): void;
  log: { info(fields: Record<string, unknown>, message: string): void };
}

export interface VirusTotal extends VirusTotalApi {
  close(): void;
}

export function createVirusTotal(options: VirusTotalOptions): VirusTotal {
  const { keychain } = options;
  const baseUrl = options.baseUrl ?? VIRUSTOTAL_BASE_URL;
  const clock = options.clock ?? systemClock;
  const state = newVirusTotalState();
  const deps: QueueDeps = {
    clock,
    send: (sha256, key) => getFileReport(baseUrl, sha256, key),
    answered(sha256, answer) {
      if (answer.kind === 'known' || answer.kind === 'unknown') state.cache.set(sha256, { answer, at: clock.now() });
      options.log.info({ sha256, answer: answer.kind }, 'VirusTotal lookup');
    },
  };

  const currentKey = async (): Promise<string | null> => {
    if (state.key !== undefined) return state.key;
    const read = await keychain.getKey(VIRUSTOTAL_ACCOUNT);
    // A keychain that cannot be used reads as no key: Settings says why.
    if (!read.ok) return null;
    if (read.value !== null) options.onSecret(read.value);
    state.key = read.value;
    return state.key;
  };

  /** Keeps the key this process holds in step with the keychain; cached answers stay (they are about files, not keys). */
  const keyChanged = (status: Result<KeyStatus>, key: string | null): Result<KeyStatus> => {
    if (status.ok) state.key = key;
    return status;
  };

  const lookup = async (raw: string): Promise<Result<VirusTotalAnswer>> => {
    if (!sha256Schema.safeParse(raw).success) return err('invalid_argument', 'A SHA-256 is 64 hexadecimal digits.');
    const sha256 = raw.toLowerCase();
    const cached = state.cache.get(sha256);
    if (cached && clock.now() - cached.at < CACHE_MS) return ok(cached.answer);
    const key = await currentKey();
    if (key === null) return ok({ kind: 'no_key' });
    let pending = state.pending.get(sha256);
    if (!pending) {
      pending = new Promise<VirusTotalAnswer>((resolve) => enqueue(state, deps, { sha256, key, resolve }));
      state.pending.set(sha256, pending);
      const settled = pending;
      void settled.then(() => {
        if (state.pending.get(sha256) === settled) state.pending.delete(sha256);
      });
    }
    return ok(await pending);
  };

  return {
    lookup,
    keyStatus: async () => ok(await keychain.status(VIRUSTOTAL_ACCOUNT)),
    async setKey(key) {
      if (typeof key !== 'string') return err('invalid_api_key', 'The API key must be text.');
      options.onSecret(key.trim());
      return keyChanged(await keychain.setKey(key, VIRUSTOTAL_ACCOUNT), key.trim());
    },
    clearKey: async () => keyChanged(await keychain.deleteKey(VIRUSTOTAL_ACCOUNT), null),
    close: () => closeQueue(state),
  };
}

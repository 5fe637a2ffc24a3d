// How `verdict lookup` asks VirusTotal: the key from the OS keychain (the window's account), and
// each hash through the app's own queue (electron/virustotal/lookup-queue.ts): one request at a
// time, at most 4 a minute, a pause after a 429 and `quota` after three in a row. The key joins
// the run's secret list as soon as it is read, so no crash report can print it.
import type { VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';
import { createKeychain, DEFAULT_KEYCHAIN_SERVICE } from '../keychain/keychain.ts';
import type { VirusTotalClock } from '../virustotal/clock.ts';
import { closeQueue, enqueue, MAX_TOO_MANY, type QueueDeps } from '../virustotal/lookup-queue.ts';
import { nextSendAt } from '../virustotal/rate-limit.ts';
import { getFileReport, VIRUSTOTAL_BASE_URL } from '../virustotal/v3-client.ts';
import { VIRUSTOTAL_ACCOUNT } from '../virustotal/virustotal.ts';
import { newVirusTotalState } from '../virustotal/virustotal-state.ts';
import { CliExit, type CliIo } from './cli-options.ts';

/** For tests only (never a setting): a stand-in for the v3 API on this computer, and a clock they move. */
export interface LookupTuning {
  baseUrl?: string;
  clock?: VirusTotalClock;
}

/** The environment variable a test names its loopback stand-in with (child processes cannot take LookupTuning). */
export const STAND_IN_VARIABLE = 'VERDICT_VIRUSTOTAL_URL';
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A CLI's clock: the app's timers are unref'd (a waiting lookup never keeps the app alive), but
 * here the wait is the work, so the process stays until the lookup's turn comes.
 */
const cliClock: VirusTotalClock = {
  now: () => Date.now(),
  setTimer(fire, ms) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

/** VirusTotal, or a stand-in on loopback only: the key is never sent anywhere else. */
export function virusTotalBaseUrl(env: NodeJS.ProcessEnv, tuning: LookupTuning): string {
  if (tuning.baseUrl !== undefined) return tuning.baseUrl;
  const given = env[STAND_IN_VARIABLE];
  if (!given) return VIRUSTOTAL_BASE_URL;
  const url = URL.canParse(given) ? new URL(given) : null;
  if (!url || !/^https?:$/.test(url.protocol) || !LOOPBACK.has(url.hostname)) {
    throw new CliExit(`${STAND_IN_VARIABLE} is for tests: it must name a stand-in on this computer (http://127.0.0.1:PORT).`);
  }
  return url.origin;
}

/** The user's key (null: none set), or why the keychain could not be read. */
export async function readVirusTotalKey(io: CliIo): Promise<{ key: string | null; problem: string | null }> {
  const keychain = createKeychain({ service: io.env.VERDICT_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE });
  const read = await keychain.getKey(VIRUSTOTAL_ACCOUNT);
  if (!read.ok) return { key: null, problem: read.error.message };
  if (read.value !== null) io.secrets?.add(read.value);
  return { key: read.value, problem: null };
}

export interface Asker {
  /** VirusTotal's answer for one hash (the same hash twice is asked once). */
  ask(sha256: string): Promise<VirusTotalAnswer>;
  close(): void;
}

export interface AskerEvents {
  /** A 429 heard (`attempt` of MAX_TOO_MANY for this lookup). */
  tooMany(attempt: number, max: number): void;
  /** The 4-a-minute window makes this lookup wait until `at` (ms since the epoch). */
  waiting(at: number): void;
}

export function createAsker(baseUrl: string, key: string, tuning: LookupTuning, events: AskerEvents): Asker {
  const clock = tuning.clock ?? cliClock;
  const state = newVirusTotalState();
  state.key = key;
  let tooManyInRow = 0;
  const deps: QueueDeps = {
    clock,
    async send(sha256, sendKey) {
      const outcome = await getFileReport(baseUrl, sha256, sendKey);
      tooManyInRow = outcome.kind === 'too_many' ? tooManyInRow + 1 : 0;
      if (outcome.kind === 'too_many' && tooManyInRow < MAX_TOO_MANY) events.tooMany(tooManyInRow, MAX_TOO_MANY);
      return outcome;
    },
    answered: () => undefined,
  };
  const asked = new Map<string, Promise<VirusTotalAnswer>>();
  /** A refused key, or a quota used up, is the answer for every hash after it too: asked no more. */
  let final: VirusTotalAnswer | null = null;
  return {
    ask(sha256) {
      let answer = asked.get(sha256);
      if (!answer && final) answer = Promise.resolve(final);
      if (!answer) {
        answer = new Promise<VirusTotalAnswer>((resolve) => {
          tooManyInRow = 0;
          enqueue(state, deps, {
            sha256,
            key,
            resolve(got) {
              if (got.kind === 'key_refused' || got.kind === 'quota') final = got;
              resolve(got);
            },
          });
          // A timer set at once: the window of the last four requests is full.
          if (state.cancelTimer) events.waiting(nextSendAt(state, clock.now()));
        });
        asked.set(sha256, answer);
      }
      return answer;
    },
    close: () => closeQueue(state),
  };
}

// The lookup queue with an injected clock and a send the test answers: at most 4
// requests in any minute, one at a time, the newest ask first, a pause after 429
// (the lookup kept, `quota` after three), 401 answering the rest of that key's
// lookups without sending them, and every ask answered. No timings: the test
// moves the clock.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VirusTotalAnswer } from '../../../shared/virustotal/lookup.ts';
import { closeQueue, enqueue, MAX_TOO_MANY } from '../../../electron/virustotal/lookup-queue.ts';
import { LOOKUPS_PER_WINDOW, WINDOW_MS } from '../../../electron/virustotal/rate-limit.ts';
import type { V3Outcome } from '../../../electron/virustotal/v3-client.ts';
import { newVirusTotalState } from '../../../electron/virustotal/virustotal-state.ts';
import { fakeClock } from './fake-clock.ts';

/** Lets the queue's promise callbacks run (no time passes). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function harness() {
  const clock = fakeClock();
  const state = newVirusTotalState();
  const sent: Array<{ sha256: string; key: string; at: number; answer(outcome: V3Outcome): void }> = [];
  const answers = new Map<string, VirusTotalAnswer>();
  let inFlight = 0;
  let mostInFlight = 0;
  const deps = {
    clock,
    send: (sha256: string, key: string) =>
      new Promise<V3Outcome>((resolve) => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        sent.push({ sha256, key, at: clock.now(), answer: (outcome) => (inFlight--, resolve(outcome)) });
      }),
    answered: () => undefined,
  };
  const ask = (sha256: string, key = 'k') => enqueue(state, deps, { sha256, key, resolve: (answer) => answers.set(sha256, answer) });
  /** Answers the request on its way, then lets the queue go on. */
  const reply = async (outcome: V3Outcome) => {
    const last = sent[sent.length - 1];
    if (!last) throw new Error('nothing sent');
    last.answer(outcome);
    await settle();
  };
  return { clock, state, sent, answers, ask, reply, mostInFlight: () => mostInFlight };
}

const UNKNOWN: V3Outcome = { kind: 'unknown' };

describe('the VirusTotal lookup queue', () => {
  it('sends 4 lookups a minute, one at a time, the newest ask first', async () => {
    const q = harness();
    for (const sha of ['a', 'b', 'c', 'd', 'e', 'f']) q.ask(sha);
    expect(q.sent.map((s) => s.sha256)).toEqual(['a']);
    for (let i = 0; i < 4; i++) await q.reply(UNKNOWN);
    // a, then the newest: f, e, d; the window is full until a minute after a went.
    expect(q.sent.map((s) => s.sha256)).toEqual(['a', 'f', 'e', 'd']);
    q.clock.advance(WINDOW_MS - 1);
    expect(q.sent).toHaveLength(4);
    q.clock.advance(1);
    expect(q.sent.map((s) => [s.sha256, s.at])).toEqual([['a', 0], ['f', 0], ['e', 0], ['d', 0], ['c', WINDOW_MS]]);
    await q.reply(UNKNOWN);
    q.clock.advance(WINDOW_MS);
    expect(q.sent.at(-1)).toMatchObject({ sha256: 'b', at: WINDOW_MS });
    await q.reply({ kind: 'known', malicious: 1, suspicious: 0, engines: 70, analysedAt: null });
    expect(q.answers.get('b')).toEqual({ kind: 'known', malicious: 1, suspicious: 0, engines: 70, analysedAt: null });
    expect(q.answers.size).toBe(6);
    expect(q.mostInFlight()).toBe(1);
  });

  it('pauses after a 429 and asks again for the same file; three 429s in a row read "quota"', async () => {
    const q = harness();
    q.ask('a');
    q.ask('b');
    await q.reply({ kind: 'too_many', retryAfterMs: undefined });
    expect(q.sent).toHaveLength(1);
    q.clock.advance(59_999);
    expect(q.sent).toHaveLength(1);
    q.clock.advance(1);
    // b was asked last, but a was the one being asked for: it goes first again.
    expect(q.sent.map((s) => s.sha256)).toEqual(['a', 'a']);
    await q.reply({ kind: 'too_many', retryAfterMs: 5_000 });
    q.clock.advance(5_000);
    expect(q.sent.map((s) => s.sha256)).toEqual(['a', 'a', 'a']);
    await q.reply({ kind: 'too_many', retryAfterMs: 5_000 });
    expect(MAX_TOO_MANY).toBe(3);
    expect(q.answers.get('a')).toEqual({ kind: 'quota' });
    q.clock.advance(WINDOW_MS);
    expect(q.sent.at(-1)?.sha256).toBe('b');
  });

  it('a refused key answers the other lookups with that key without sending them', async () => {
    const q = harness();
    q.ask('a', 'wrong');
    q.ask('b', 'wrong');
    q.ask('c', 'right');
    q.ask('d', 'wrong');
    await q.reply({ kind: 'key_refused' });
    expect(q.answers.get('a')).toEqual({ kind: 'key_refused' });
    expect(q.answers.get('b')).toEqual({ kind: 'key_refused' });
    expect(q.answers.get('d')).toEqual({ kind: 'key_refused' });
    expect(q.sent.map((s) => s.sha256)).toEqual(['a', 'c']);
  });

  it('closing answers what still waits', async () => {
    const q = harness();
    q.ask('a');
    q.ask('b');
    closeQueue(q.state);
    expect(q.answers.get('b')).toEqual({ kind: 'unavailable', detail: 'Verdict is closing.' });
    await q.reply(UNKNOWN);
    expect(q.answers.get('a')).toEqual(UNKNOWN);
  });

  it('whatever the asks, answers and pauses: never more than 4 in a minute, one at a time, every ask answered', async () => {
    const outcome = fc.oneof(
      fc.constant<V3Outcome>(UNKNOWN),
      fc.constant<V3Outcome>({ kind: 'quota' }),
      fc.record({ kind: fc.constant('too_many' as const), retryAfterMs: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }) }),
    );
    const step = fc.oneof(
      fc.record({ do: fc.constant('ask' as const), count: fc.integer({ min: 1, max: 5 }) }),
      fc.record({ do: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 90_000 }) }),
      fc.record({ do: fc.constant('reply' as const), outcome }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const q = harness();
        let asked = 0;
        const answered = new Set<string>();
        const pending = () => q.sent.length - q.sent.filter((_, i) => answered.has(String(i))).length;
        const replyNext = async (outcome: V3Outcome) => {
          const index = q.sent.length - 1;
          if (index < 0 || answered.has(String(index))) return;
          answered.add(String(index));
          await q.reply(outcome);
        };
        for (const s of steps) {
          if (s.do === 'ask') for (let i = 0; i < s.count; i++) q.ask(`f${asked++}`);
          else if (s.do === 'advance') q.clock.advance(s.ms);
          else await replyNext(s.outcome);
        }
        // Then answer everything, as time goes on.
        for (let round = 0; round < 10_000 && q.answers.size < asked; round++) {
          if (pending() > 0) await replyNext(UNKNOWN);
          else q.clock.advance(WINDOW_MS);
        }
        expect(q.answers.size).toBe(asked);
        expect(q.mostInFlight()).toBeLessThanOrEqual(1);
        const times = q.sent.map((s) => s.at);
        for (let i = LOOKUPS_PER_WINDOW; i < times.length; i++) expect(times[i]! - times[i - LOOKUPS_PER_WINDOW]!).toBeGreaterThanOrEqual(WINDOW_MS);
      }),
      { numRuns: 150 },
    );
  });
});

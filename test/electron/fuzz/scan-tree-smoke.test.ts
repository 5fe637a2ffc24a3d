// The scan-tree fuzz target (test/fuzz/targets/scan-tree.ts) briefly, at a fixed seed:
// its kept reproducers (test/fuzz/corpus/scan-tree.json), then 12 generated rounds. A
// round runs the real scan CLI one to four times on a generated tree (about 3 s on 2
// busy cores, so 40–90 s in all), hence a test of its own rather than a share of
// fuzz-smoke.test.ts's 10 s. Rounds are counted, not timed: a slow machine takes
// longer but never fails for it (the timeout only stops a hang). The seed's 12 rounds
// cover every kind of entry, name and plan the generator makes (stops by SIGINT and
// SIGKILL, a small disk, changes during the earlier and the final run).
import { describe, expect, it } from 'vitest';
import { runTarget } from '../../fuzz/harness/run-target.ts';
import { asTarget } from '../../fuzz/harness/target.ts';
import { scanTreeTarget } from '../../fuzz/targets/scan-tree.ts';

const SEED = 1788;
const ROUNDS = scanTreeTarget.smoke.runs;

describe('scan-tree fuzz target (smoke: fixed seed, 12 rounds)', () => {
  it(scanTreeTarget.about, { timeout: 20 * 60_000 }, async () => {
    const report = await runTarget(asTarget(scanTreeTarget), { seed: SEED, runs: ROUNDS, shrink: false, bail: true });
    expect(report.failures.map((failure) => `${failure.source}: ${failure.message}\n  input: ${JSON.stringify(failure.input)?.slice(0, 1500)}`)).toEqual([]);
    expect(report.executions).toBe(ROUNDS);
  });
});

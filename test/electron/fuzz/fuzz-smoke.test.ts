// Every fuzz target (test/fuzz/), briefly, at a fixed seed: its kept regression
// inputs (test/fuzz/corpus/) and a few generated ones. `npm run fuzz` runs them
// for longer. A finding fails the test with its input.
// The kept inputs include the crashes of issue 18 (a file part without a usable
// name; an attributes file part cut off by the end of the body), which ended the
// service before its fix: on that code `multipart` and `socket` fail here.
import { describe, expect, it } from 'vitest';
import { runTarget } from '../../fuzz/harness/run-target.ts';
import { TARGETS } from '../../fuzz/targets/index.ts';

const SEED = 1818;

describe('fuzz targets (smoke: fixed seed, a few seconds each)', () => {
  for (const target of TARGETS) {
    it(`${target.name}: ${target.about}`, async () => {
      const report = await runTarget(target, { seed: SEED, runs: target.smoke.runs, timeMs: 10_000, shrink: false, bail: true });
      expect(report.failures.map((failure) => `${failure.source}: ${failure.message}\n  input: ${JSON.stringify(failure.input)?.slice(0, 600)}`)).toEqual([]);
      expect(report.executions).toBeGreaterThan(0);
    });
  }
});

// Every fuzz target (test/fuzz/), briefly, at a fixed seed: its kept regression
// inputs (test/fuzz/corpus/) and a few generated ones. `npm run fuzz` runs them
// for longer. A finding fails the test with its input.
//
// Until issue 18's fix of the service's request handling is merged, the kept
// inputs of `multipart` and `socket` (a file part without a usable name ends the
// service; Node's own 400/413/417/431 answers carry no JSON body) still fail:
// those two are then expected to fail (it.fails), which also shows the harness
// catches the crash. The fix adds `request_timeout` to ERROR_CODES; from then on
// they must pass like the others.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/service-contract/errors.ts';
import { runTarget } from '../../fuzz/harness/run-target.ts';
import { TARGETS } from '../../fuzz/targets/index.ts';

const SEED = 1818;
const SERVICE_FIX_MERGED = 'request_timeout' in ERROR_CODES;
const NEEDS_SERVICE_FIX = new Set(['multipart', 'socket']);

describe('fuzz targets (smoke: fixed seed, a few seconds each)', () => {
  for (const target of TARGETS) {
    const test = !SERVICE_FIX_MERGED && NEEDS_SERVICE_FIX.has(target.name) ? it.fails : it;
    test(`${target.name}: ${target.about}`, async () => {
      const report = await runTarget(target, { seed: SEED, runs: target.smoke.runs, timeMs: 10_000, shrink: false, bail: true });
      expect(report.failures.map((failure) => `${failure.source}: ${failure.message}\n  input: ${JSON.stringify(failure.input)?.slice(0, 600)}`)).toEqual([]);
      expect(report.executions).toBeGreaterThan(0);
    });
  }
});

// The service end to end with a real clamd (started by the test with its own
// signature database): EICAR is found and named, a clean file is clean.
// Without clamd installed (and not in CI) startClamd() warns loudly and this is skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { startClamd, TEST_SIGNATURES, type RunningClamd } from '../../support/clamd.ts';
import { startTestService, submit, type TestService } from './harness.ts';

let clamd: RunningClamd | null = null;
let service: TestService | null = null;

beforeAll(async () => {
  clamd = await startClamd();
  if (!clamd) {
    console.warn('!!! SKIPPED: the local service with a real clamd (clamd is not installed)');
    return;
  }
  service = await startTestService({ engine: { kind: 'clamd', clamdSocket: clamd.socketPath } });
});
afterAll(async () => {
  await service?.close();
  await clamd?.stop();
});

describe('the local service with a real clamd', () => {
  it('names the EICAR finding and passes a clean file', async (context) => {
    if (!service) return context.skip();
    expect(service.engine.name).toBe('clamd');

    const infected = terminalScanSchema.parse((await submit(service.url, { mode: 'sync', file: EICAR_TEST_STRING, attributes: { file_name: 'eicar.com' } })).body);
    expect(infected.status).toBe('completed');
    expect(infected.result).toEqual({ safe: false, detailed: 'infected', findings: [{ name: TEST_SIGNATURES.eicar, engine: 'clamd' }] });

    const clean = terminalScanSchema.parse((await submit(service.url, { mode: 'sync', file: 'just a harmless note\n', attributes: { file_name: 'note.txt' } })).body);
    expect(clean.result).toEqual({ safe: true, detailed: 'clean', findings: [] });
    // Who made the verdict: ClamAV, whose VERSION names no signatures with the tests' own databases.
    for (const scan of [infected, clean]) expect(scan.engine).toEqual({ name: 'clamav', version: expect.stringMatching(/^\d+\.\d+\.\d+/), signatures: null });
  });
});

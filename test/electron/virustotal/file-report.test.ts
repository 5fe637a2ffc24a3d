// Reading VirusTotal's answers (outside input): a file object's counts and date,
// and whatever else arrives never throws and never reads as more than it says.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerFromFileObject, errorCodeOf } from '../../../electron/virustotal/file-report.ts';

describe('a v3 file object', () => {
  it('gives detections out of the engines that gave a verdict, and the date', () => {
    const body = { data: { attributes: { last_analysis_date: 1_700_000_000, last_analysis_stats: { malicious: 3, suspicious: 2, undetected: 50, harmless: 5, 'type-unsupported': 9, timeout: 1 } } } };
    expect(answerFromFileObject(body)).toEqual({ kind: 'known', malicious: 3, suspicious: 2, engines: 60, analysedAt: '2023-11-14T22:13:20.000Z' });
  });

  it('a file never analysed has no date and no engines', () => {
    expect(answerFromFileObject({ data: { attributes: {} } })).toEqual({ kind: 'known', malicious: 0, suspicious: 0, engines: 0, analysedAt: null });
  });

  it('anything else is not a report, and never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const answer = answerFromFileObject(value);
        if (answer === null) return;
        expect(answer.malicious + answer.suspicious).toBeLessThanOrEqual(answer.engines);
        expect(answer.malicious).toBeGreaterThanOrEqual(0);
        expect(answer.suspicious).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.record({ data: fc.record({ attributes: fc.record({ last_analysis_stats: fc.dictionary(fc.constantFrom('malicious', 'suspicious', 'undetected', 'harmless', 'x'), fc.jsonValue()), last_analysis_date: fc.jsonValue() }, { requiredKeys: [] }) }) }), (value) => {
        const answer = answerFromFileObject(value);
        expect(answer?.kind).toBe('known');
        if (answer?.kind === 'known') expect(answer.malicious + answer.suspicious).toBeLessThanOrEqual(answer.engines);
      }),
      { numRuns: 500 },
    );
  });

  it("an error body's code is kept only when it is a plain word", () => {
    expect(errorCodeOf({ error: { code: 'NotFoundError', message: 'x' } })).toBe('NotFoundError');
    expect(errorCodeOf({ error: { code: 'a b\u202e' } })).toBeNull();
    expect(errorCodeOf('nope')).toBeNull();
  });
});

// "Scanned in part" (issue 27 §3): clamd's limit and encryption heuristics, and nothing else, make a
// record read 'partial': never 'safe', and not 'unsafe' either; a real signature beside them stays a threat.
import { describe, expect, it } from 'vitest';
import { coverageReasonOf, coverageReasons, isCoverageOnly, SCANNED_IN_PART_LABEL } from '../../../shared/scans/coverage.ts';
import { isScannedInPart, verdictOf, VERDICTS } from '../../../shared/scans/record.ts';
import { parseInstreamReply } from '../../../electron/engine/instream/clamd-protocol.ts';
import { DETAILED_LABELS } from '../../../electron/engine/engine.ts';

const completed = { status: 'completed' as const };

describe('scanned in part', () => {
  it('names the reason of each clamd heuristic that says what could not be inspected', () => {
    expect(coverageReasonOf('Heuristics.Limits.Exceeded.MaxFileSize')).toBe('file-size');
    expect(coverageReasonOf('Heuristics.Limits.Exceeded.MaxScanSize')).toBe('scan-size');
    expect(coverageReasonOf('Heuristics.Limits.Exceeded.MaxRecursion')).toBe('recursion');
    expect(coverageReasonOf('Heuristics.Limits.Exceeded.MaxFiles')).toBe('files');
    expect(coverageReasonOf('Heuristics.Limits.Exceeded.MaxHTMLNormalize')).toBe('other-limit');
    expect(coverageReasonOf('Heuristics.Limits.Exceeded')).toBe('other-limit');
    expect(coverageReasonOf('Heuristics.Encrypted.Zip')).toBe('encrypted-archive');
    expect(coverageReasonOf('Heuristics.Encrypted.RAR')).toBe('encrypted-archive');
    expect(coverageReasonOf('Heuristics.Encrypted.PDF')).toBe('encrypted-document');
    // Real detections, heuristic or not, are no reason.
    expect(coverageReasonOf('Verdict-Test-Eicar.UNOFFICIAL')).toBeNull();
    expect(coverageReasonOf('Heuristics.Phishing.Email.SpoofedDomain')).toBeNull();
    expect(coverageReasonOf('Win.Test.EICAR_HDB-1')).toBeNull();
  });

  it('is scanned in part only when every finding is such a heuristic', () => {
    expect(isCoverageOnly([{ name: 'Heuristics.Encrypted.Zip' }])).toBe(true);
    expect(isCoverageOnly([{ name: 'Heuristics.Encrypted.Zip' }, { name: 'Heuristics.Limits.Exceeded.MaxFileSize' }])).toBe(true);
    expect(isCoverageOnly([{ name: 'Heuristics.Limits.Exceeded.MaxFileSize' }, { name: 'Eicar-Signature' }])).toBe(false);
    expect(isCoverageOnly([])).toBe(false);
    expect(coverageReasons([{ name: 'Heuristics.Encrypted.Zip' }, { name: 'Heuristics.Encrypted.Zip' }, { name: 'X' }])).toEqual(['encrypted-archive']);
  });

  it("turns clamd's answer into the verdict: limit heuristics alone scanned in part, with a signature a threat", () => {
    const partial = parseInstreamReply('stream: Heuristics.Limits.Exceeded.MaxFileSize FOUND\0');
    expect(partial).toEqual({ safe: false, detailed: SCANNED_IN_PART_LABEL, findings: [{ name: 'Heuristics.Limits.Exceeded.MaxFileSize' }] });
    const both = parseInstreamReply('stream: Heuristics.Limits.Exceeded.MaxFileSize FOUND\0stream: Eicar-Signature FOUND\0');
    expect(both.detailed).toBe(DETAILED_LABELS.infected);
    expect(parseInstreamReply('stream: OK\0')).toEqual({ safe: true, detailed: 'clean', findings: [] });
  });

  it("reads 'partial' by its label: never clean, not a threat; allowed content stays allowed", () => {
    expect(VERDICTS).toContain('partial');
    expect(DETAILED_LABELS.scannedInPart).toBe(SCANNED_IN_PART_LABEL);
    expect(verdictOf({ ...completed, safe: false, detailed: SCANNED_IN_PART_LABEL, engine: null })).toBe('partial');
    expect(verdictOf({ ...completed, safe: false, detailed: SCANNED_IN_PART_LABEL, disposition: 'allowed', engine: null })).toBe('allowed');
    expect(verdictOf({ ...completed, safe: false, detailed: 'infected', engine: null })).toBe('unsafe');
    expect(verdictOf({ status: 'failed', safe: null, detailed: SCANNED_IN_PART_LABEL })).toBe('could-not-scan');
    expect(isScannedInPart({ detailed: SCANNED_IN_PART_LABEL })).toBe(true);
    expect(isScannedInPart({ detailed: 'clean' })).toBe(false);
  });
});

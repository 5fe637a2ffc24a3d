// A finding of the user's own YARA rules (issue 28 §4): it reads `YARA: RULE (FILE)` in the CLI
// and the detail panel (findingLabel), the export's CSV names the rule file beside the engine and
// the JSON keeps `findings[].ruleFile`; any other finding reads by its name, as before.
import { describe, expect, test } from 'vitest';
import { csvChunks, jsonChunks } from '../../../electron/history/export-format.ts';
import { findingLabel } from '../../../shared/scans/finding-label.ts';
import { queuedRecord, type ScanRecord } from '../../../shared/scans/record.ts';

const record: ScanRecord = {
  ...queuedRecord({ id: 'r1', path: '/home/u/tool.bin', fileName: 'tool.bin', origin: 'drop', backend: 'local', externalReferenceId: 'verdict/x/r1', queuedAt: '2026-11-20T10:00:00.000Z' }),
  status: 'completed',
  safe: false,
  detailed: 'infected',
  findings: [
    { name: 'YARA.VerdictGood.UNOFFICIAL', engine: 'clamd', ruleFile: 'mine.yar' },
    { name: 'Win.Test.EICAR_HDB-1', engine: 'clamd' },
  ],
  completedAt: '2026-11-20T10:00:01.000Z',
};

describe('a YARA rule’s finding', () => {
  test('reads YARA: RULE (FILE); others, and a YARA name with no known file, by their name', () => {
    expect(findingLabel({ name: 'YARA.VerdictGood.UNOFFICIAL', ruleFile: 'mine.yar' })).toBe('YARA: VerdictGood (mine.yar)');
    expect(findingLabel({ name: 'YARA.VerdictGood', ruleFile: 'mine.yar' })).toBe('YARA: VerdictGood (mine.yar)');
    expect(findingLabel({ name: 'YARA.VerdictGood.UNOFFICIAL' })).toBe('YARA.VerdictGood.UNOFFICIAL');
    expect(findingLabel({ name: 'Win.Test.EICAR_HDB-1', ruleFile: 'x.yar' })).toBe('Win.Test.EICAR_HDB-1');
  });

  test('the export: the rule file beside the engine (CSV), findings[].ruleFile (JSON)', () => {
    expect([...csvChunks([record])].join('')).toContain('YARA.VerdictGood.UNOFFICIAL (clamd, rule file: mine.yar); Win.Test.EICAR_HDB-1 (clamd)');
    const rows = JSON.parse([...jsonChunks([record])].join('')) as ScanRecord[];
    expect(rows[0]?.findings).toEqual(record.findings);
  });
});

// A finding's signature feed in the history's export (issue 28 §3): the CSV's findings column
// names it beside the engine, and the JSON keeps it as `findings[].feed`; a finding without one
// reads as before.
import { describe, expect, test } from 'vitest';
import { csvChunks, jsonChunks } from '../../../electron/history/export-format.ts';
import { queuedRecord, type ScanRecord } from '../../../shared/scans/record.ts';

const record: ScanRecord = {
  ...queuedRecord({ id: 'r1', path: '/home/u/mail.eml', fileName: 'mail.eml', origin: 'drop', backend: 'local', externalReferenceId: 'verdict/x/r1', queuedAt: '2026-11-20T10:00:00.000Z' }),
  status: 'completed',
  safe: false,
  detailed: 'infected',
  findings: [
    { name: 'Sanesecurity.Phishing.1.UNOFFICIAL', engine: 'clamd', feed: 'Sanesecurity: phishing, scam and spam' },
    { name: 'Win.Test.EICAR_HDB-1', engine: 'clamd' },
  ],
  completedAt: '2026-11-20T10:00:01.000Z',
};

describe('the export names a finding’s feed', () => {
  test('CSV: in the findings column, beside the engine', () => {
    const csv = [...csvChunks([record])].join('');
    expect(csv).toContain('Sanesecurity.Phishing.1.UNOFFICIAL (clamd, feed: Sanesecurity: phishing, scam and spam); Win.Test.EICAR_HDB-1 (clamd)');
  });

  test('JSON: findings[].feed', () => {
    const rows = JSON.parse([...jsonChunks([record])].join('')) as ScanRecord[];
    expect(rows[0]?.findings).toEqual(record.findings);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { scanRecord } from './test-core.ts';
import { realTimers } from '../../../electron/shell/event-batcher.ts';
import { createFinishedScanCollector, outcomeOfRecord, planNotifications } from '../../../electron/shell/notification-rules.ts';
import { textsFor } from '../../../electron/shell/texts.ts';

const texts = textsFor('en');
const threat = (id: string, detailed: string | null = 'Win.Test.EICAR_HDB-1') => scanRecord({ id, fileName: `${id}.exe`, safe: false, detailed });
const clean = (id: string) => scanRecord({ id, fileName: `${id}.txt`, safe: true });
const failed = (id: string) => scanRecord({ id, fileName: `${id}.iso`, status: 'failed', safe: null, error: { code: 'file_too_large', message: 'too big' } });
const skipped = (id: string) => scanRecord({ id, status: 'skipped', safe: null });
const plan = (batch: ScanRecord[], notifyClean = false) => planNotifications(batch, { notifyClean, maxIndividual: 3 }, texts);

describe('planNotifications', () => {
  it('never words a clean answer of basic checks only as clean: its own notice, only when clean results are, and its own summary part', () => {
    const basic = (id: string) => scanRecord({ id, fileName: `${id}.txt`, safe: true, detailed: 'clean (basic checks only; ClamAV not available)', engine: { name: 'builtin', version: null, signatures: null } });
    expect(plan([basic('b')])).toEqual([]);
    expect(plan([basic('b')], true)).toEqual([
      {
        kind: 'basic-only',
        title: 'Basic checks only: b.txt',
        body: 'Not a full scan: ClamAV was not available, and basic checks recognise only the EICAR test file. Scan it again with ClamAV.',
        scanId: 'b',
      },
    ]);
    expect(planNotifications([basic('b')], { notifyClean: true, maxIndividual: 3 }, textsFor('de'))[0]!.title).toBe('Nur Basisprüfung: b.txt');
    const [summary] = plan([threat('t'), clean('c'), basic('b1'), basic('b2')], true);
    expect(summary).toMatchObject({ kind: 'summary', body: '1 threat found, 1 file clean, 2 files checked with basic checks only', scanId: 't' });
  });

  it('tells files scanned in part always, never as threats or clean, and counts them in a summary', () => {
    const partial = (id: string) => scanRecord({ id, fileName: `${id}.zip`, safe: false, detailed: 'scanned in part', findings: [{ name: 'Heuristics.Encrypted.Zip' }] });
    expect(plan([partial('p1'), partial('p2')])).toEqual([
      {
        kind: 'partial',
        title: 'Some files were scanned only in part',
        body: '2 files scanned in part: over a scan limit or encrypted, so not all of the contents could be inspected. Open Verdict to see which.',
        scanId: 'p1',
      },
    ]);
    expect(planNotifications([partial('p')], { notifyClean: false, maxIndividual: 3 }, textsFor('de'))[0]!.title).toBe('Einige Dateien wurden nur teilweise geprüft');
    const [summary] = plan([threat('t1'), threat('t2'), threat('t3'), threat('t4'), partial('p')]);
    expect(summary).toMatchObject({ kind: 'summary', body: '4 threats found, 1 file scanned in part', scanId: 't1' });
  });

  it('always notifies a threat: file name, verdict label and what Verdict did; clicking opens it', () => {
    expect(plan([threat('eicar')])).toEqual([
      {
        kind: 'threat',
        title: 'Threat found: eicar.exe',
        body: 'Win.Test.EICAR_HDB-1. Verdict left the file where it is; open the scan to decide what to do.',
        scanId: 'eicar',
      },
    ]);
  });

  it('shows a bidi control in the name as ⟨U+XXXX⟩, so "invoice<RLO>fdp.exe" cannot pass for a PDF', () => {
    const disguised = { ...threat('rlo'), fileName: 'invoice\u202Efdp.exe' };
    expect(plan([disguised])[0]!.title).toBe('Threat found: invoice⟨U+202E⟩fdp.exe');
    const cleanOne = { ...clean('c'), fileName: 'report\u2067.txt' };
    expect(plan([cleanOne], true)[0]!.title).toMatch(/report⟨U\+2067⟩\.txt$/);
    // Right-to-left letters are text: left as they are.
    expect(plan([{ ...threat('he'), fileName: 'חשבונית.exe' }])[0]!.title).toBe('Threat found: חשבונית.exe');
  });

  it('says so when Verdict quarantined the file', () => {
    const [notice] = planNotifications([threat('q')], { notifyClean: false, maxIndividual: 3, outcomeOf: () => 'quarantined' }, texts);
    expect(notice!.body).toBe('Win.Test.EICAR_HDB-1. Verdict moved the file to quarantine; open the scan to restore or delete it.');
  });

  it('says what Verdict did, as the record says: moved to quarantine, or could not move it', () => {
    expect(plan([threat('q1')].map((r) => ({ ...r, disposition: 'quarantined' as const })))[0]!.body).toBe(
      'Win.Test.EICAR_HDB-1. Verdict moved the file to quarantine; open the scan to restore or delete it.',
    );
    expect(plan([{ ...threat('q2'), disposition: 'quarantine_failed' as const }])[0]!.body).toBe(
      'Win.Test.EICAR_HDB-1. Verdict could not move the file to quarantine, so it is still where it was; open the scan to see why.',
    );
    expect(outcomeOfRecord({ ...threat('q3'), disposition: 'restored' })).toBe('left-in-place');
    expect(planNotifications([{ ...threat('q4'), disposition: 'quarantined' }], { notifyClean: false, maxIndividual: 3 }, textsFor('de'))[0]!.body).toMatch(
      /in die Quarantäne verschoben/,
    );
  });

  it('never notifies content the user allowed: it is neither a threat nor clean', () => {
    expect(plan([{ ...threat('ok'), disposition: 'allowed' }], true)).toEqual([]);
  });

  it('names a threat without a detailed label as a threat', () => {
    expect(plan([threat('x', null)])[0]!.body).toMatch(/^Threat\. /);
  });

  it('notifies clean results only when the user asked for it', () => {
    expect(plan([clean('a')], false)).toEqual([]);
    expect(plan([clean('a')], true)).toEqual([{ kind: 'clean', title: 'Clean: a.txt', body: 'No threat found.', scanId: 'a' }]);
  });

  it('never notifies skipped files', () => {
    expect(plan([skipped('s')], true)).toEqual([]);
  });

  it('announces failures once per batch, opening the first failed scan', () => {
    expect(plan([failed('f1'), failed('f2'), clean('c')])).toEqual([
      { kind: 'failed', title: 'Some files could not be scanned', body: '2 files could not be scanned. Open Verdict to see why.', scanId: 'f1' },
    ]);
  });

  it('summarizes a burst instead of flooding: "3 threats found, 12 files clean"', () => {
    const batch = [threat('t1'), ...Array.from({ length: 12 }, (_, i) => clean(`c${i}`)), threat('t2'), threat('t3')];
    expect(plan(batch, true)).toEqual([{ kind: 'summary', title: 'Verdict: scan results', body: '3 threats found, 12 files clean', scanId: 't1' }]);
  });

  it('summarizes many threats even when clean results are not wanted, counting failures in', () => {
    const batch = [threat('t1'), threat('t2'), threat('t3'), threat('t4'), clean('c'), failed('f')];
    expect(plan(batch, false)).toEqual([{ kind: 'summary', title: 'Verdict: scan results', body: '4 threats found, 1 file clean, 1 file could not be scanned', scanId: 't1' }]);
  });

  it('lists a few threats individually, with the failure notice after them', () => {
    expect(plan([threat('t1'), threat('t2'), failed('f')]).map((notice) => [notice.kind, notice.scanId])).toEqual([
      ['threat', 't1'],
      ['threat', 't2'],
      ['failed', 'f'],
    ]);
  });

  it('summarizes many clean results when asked to notify them', () => {
    expect(plan(Array.from({ length: 20 }, (_, i) => clean(`c${i}`)), true)).toEqual([
      { kind: 'summary', title: 'Verdict: scan results', body: '20 files clean', scanId: null },
    ]);
  });

  it('speaks German', () => {
    const [notice] = planNotifications([threat('t')], { notifyClean: false, maxIndividual: 3 }, textsFor('de'));
    expect(notice!.title).toBe('Bedrohung gefunden: t.exe');
  });
});

describe('createFinishedScanCollector', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects what finishes within the window into one batch, each scan once', () => {
    const batches: string[][] = [];
    const collector = createFinishedScanCollector({ windowMs: 1500, timers: realTimers, onBatch: (batch) => batches.push(batch.map((r) => r.id)) });
    collector.offer(scanRecord({ id: 'q', status: 'queued', safe: null }));
    collector.offer(threat('a'));
    vi.advanceTimersByTime(1000);
    collector.offer(clean('b'));
    collector.offer(threat('a'));
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(batches).toEqual([['a', 'b']]);
    collector.offer(clean('b'));
    collector.offer(failed('c'));
    vi.advanceTimersByTime(1500);
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });

  it('waits for a threat on its way to quarantine, and notifies its next record (what Verdict did)', () => {
    const batches: ScanRecord[][] = [];
    const collector = createFinishedScanCollector({ windowMs: 1500, timers: realTimers, onBatch: (batch) => batches.push(batch) });
    collector.offer({ ...threat('a'), disposition: 'quarantine_pending' });
    vi.advanceTimersByTime(5000);
    expect(batches).toEqual([]);
    collector.offer({ ...threat('a'), disposition: 'quarantined', quarantineId: 'q' });
    collector.offer({ ...threat('a'), disposition: 'restored', quarantineId: 'q' });
    vi.advanceTimersByTime(1500);
    expect(batches.map((batch) => batch.map((r) => [r.id, r.disposition]))).toEqual([[['a', 'quarantined']]]);
  });

  it('bounds the ids it remembers', () => {
    const batches: string[][] = [];
    const collector = createFinishedScanCollector({ windowMs: 10, timers: realTimers, remember: 2, onBatch: (batch) => batches.push(batch.map((r) => r.id)) });
    for (const id of ['a', 'b', 'c', 'a']) collector.offer(clean(id));
    vi.advanceTimersByTime(10);
    expect(batches).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('drops a pending batch on dispose', () => {
    const onBatch = vi.fn();
    const collector = createFinishedScanCollector({ windowMs: 10, timers: realTimers, onBatch });
    collector.offer(threat('a'));
    collector.dispose();
    vi.advanceTimersByTime(100);
    expect(onBatch).not.toHaveBeenCalled();
  });
});

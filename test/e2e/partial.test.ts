// "Scanned in part" (issue 27 §3) is never shown as clean, nor as a threat, in the real renderer
// (Chromium) over the real core: a file ClamAV could inspect only in part (over a scan limit, or
// encrypted) reads "Scanned in part" with its own icon and look, has a filter of its own (the
// threat filter leaves it out), and its detail gives the reason in words; axe finds nothing, in
// English and in German.
import { describe, expect, it } from 'vitest';
import { SCANNED_IN_PART_LABEL } from '../../shared/scans/coverage.ts';
import { openHistory } from '../../electron/history/history.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { contrastOf } from './support/app-harness.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';
import { judgedRecord, seedHistory } from './support/seeded-history.ts';
import { jobStateFor } from '../electron/jobs/job-kit.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-partial-', engine: false });
const CLAMAV = { name: 'clamav' as const, version: '1.4.6', signatures: { version: 27467, date: '2026-11-20T09:00:00.000Z' } };

const judged = (fileName: string, at: string, over: Partial<ScanRecord>): ScanRecord => judgedRecord(fileName, at, { engine: CLAMAV, ...over });

const SEEDED = [
  judged('photos.zip', '2026-11-20T10:00:00.000Z', { safe: false, detailed: SCANNED_IN_PART_LABEL, findings: [{ name: 'Heuristics.Encrypted.Zip' }] }),
  judged('disk.iso', '2026-11-20T10:00:01.000Z', { safe: false, detailed: SCANNED_IN_PART_LABEL, findings: [{ name: 'Heuristics.Limits.Exceeded.MaxFileSize' }] }),
  judged('clean.txt', '2026-11-20T10:00:02.000Z', { detailed: 'clean' }),
  judged('eicar.com', '2026-11-20T10:00:03.000Z', { safe: false, detailed: 'infected', findings: [{ name: 'Win.Test.EICAR_HDB-1' }] }),
];

const seed = seedHistory(SEEDED);

describe('scanned in part', () => {
  it('reads "Scanned in part", never "Clean" or "Threat": its badge, its filter and its reason, axe-clean', async () => {
    const { real, app, page } = await start({ prepare: seed });
    const zip = rowFor(page, 'photos.zip');
    await zip.and(page.locator('[data-verdict=partial]')).waitFor();
    const badge = zip.locator('.badge');
    expect(await badge.textContent()).toBe(en['verdict.partial']);
    expect(await badge.getAttribute('class')).toContain('badge--partial');
    expect(await badge.locator('svg').count()).toBe(1);
    expect(await rowFor(page, 'clean.txt').getAttribute('data-verdict')).toBe('safe');
    expect(await rowFor(page, 'eicar.com').getAttribute('data-verdict')).toBe('unsafe');
    expect(await contrastOf(page, '.row .badge--partial')).toBeGreaterThanOrEqual(4.5);

    // A filter of its own; the threat filter leaves such files out.
    const filter = page.getByLabel(en['filter.verdict']);
    expect(await filter.locator('option[value="partial"]').textContent()).toBe(en['verdict.partial']);
    await filter.selectOption('partial');
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(2);
    expect(await page.locator('.row[data-scan-id][data-verdict=partial]').count()).toBe(2);
    await filter.selectOption('unsafe');
    await rowFor(page, 'eicar.com').waitFor();
    await expect.poll(() => page.locator('.row[data-scan-id]').count()).toBe(1);
    await filter.selectOption('all');

    // The detail gives the reason in words, and says it is not clean; no quarantine actions.
    await rowFor(page, 'photos.zip').click();
    const detail = page.getByTestId('detail-panel');
    const note = detail.getByTestId('partial');
    await note.waitFor();
    expect(await note.textContent()).toContain(en['detail.partialTitle']);
    expect(await note.textContent()).toContain(en['coverage.encrypted-archive']);
    expect(await note.textContent()).toContain(en['detail.partialHint']);
    expect(await detail.getByTestId('threat-actions').count()).toBe(0);
    expect(await detail.locator('.detail__verdict .badge').textContent()).toBe(en['verdict.partial']);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await rowFor(page, 'disk.iso').click();
    await detail.getByTestId('partial').getByText(en['coverage.file-size']).waitFor();
    await app.screenshot('partial-detail-en');

    // German: its own word, and the reason in German.
    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    const german = rowFor(page, 'photos.zip');
    await german.waitFor();
    expect(await german.locator('.badge').textContent()).toBe(de['verdict.partial']);
    await german.click();
    await page.getByTestId('detail-panel').getByTestId('partial').getByText(de['coverage.encrypted-archive']).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expectNoProblems(app);
  });

  it("a job's files scanned in part have a list of their own, with the reason, never among its threats or clean files", async () => {
    const files = [
      judged('a.txt', '2026-11-20T10:00:00.000Z', { detailed: 'clean' }),
      judged('photos.zip', '2026-11-20T10:00:01.000Z', { safe: false, detailed: SCANNED_IN_PART_LABEL, findings: [{ name: 'Heuristics.Encrypted.Zip' }] }),
      judged('eicar.com', '2026-11-20T10:00:02.000Z', { safe: false, detailed: 'infected', findings: [{ name: 'Win.Test.EICAR_HDB-1' }] }),
    ].map((record) => ({ ...record, path: `/tree/${record.fileName}` }));
    const seedJob = (dataDir: string) => {
      const history = openHistory(dataDir);
      const { id: _id, ...job } = jobStateFor({
        status: 'completed',
        walkComplete: true,
        finishedAt: '2026-11-20T10:00:03.000Z',
        counts: { found: 3, bytes: 0, scanned: 3, threats: 1, couldNotScan: 0, skipped: 0 },
      });
      history.insertMany(files, history.jobs.insert(job));
      history.close();
    };
    const { page } = await start({ prepare: seedJob });
    const row = page.getByTestId('job-row');
    await row.waitFor();
    const toggle = row.locator('.job__toggle');
    await toggle.click();
    const details = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    const partial = details.getByTestId('job-files-partial');
    await partial.getByRole('heading', { name: `${en['jobs.files.partial']} (1)` }).waitFor();
    await partial.getByRole('button', { name: 'photos.zip' }).waitFor();
    expect(await partial.locator('.badge').textContent()).toBe(en['verdict.partial']);
    expect(await partial.textContent()).toContain(en['coverage.encrypted-archive']);
    const threats = details.getByTestId('job-files-threats');
    await threats.getByRole('button', { name: 'eicar.com' }).waitFor();
    expect(await threats.getByRole('button', { name: 'photos.zip' }).count()).toBe(0);
    expect(await details.getByTestId('job-clean-search').textContent()).toContain('1 clean file');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
  });

  // Issue 27 §1 and §2, beside "scanned in part" as other verdicts that must not read as plain: a clean
  // verdict given while the self-test failed says so, and a recheck's changed verdict names the clean one before it.
  it('a verdict given while the self-test failed says so; a recheck\'s new verdict names the earlier clean one (en/de, axe-clean)', async () => {
    const earlier = judged('invoice.pdf', '2026-11-20T10:00:00.000Z', { detailed: 'clean', path: '/tree/invoice.pdf' });
    const detected = { ...judged('invoice.pdf', '2026-11-23T10:00:00.000Z', { safe: false, detailed: 'infected', findings: [{ name: 'Pdf.Dropper.Agent-1' }] }), path: '/tree/invoice.pdf' };
    const blind = judged('letter.txt', '2026-11-23T10:00:01.000Z', { detailed: 'clean', engine: { ...CLAMAV, selfTest: 'failed' } });
    const seedRecheck = (dataDir: string) => {
      const history = openHistory(dataDir);
      const { id: _id, ...job } = jobStateFor({ status: 'completed', walkComplete: true, finishedAt: '2026-11-23T10:00:02.000Z', counts: { found: 1, bytes: 0, scanned: 1, threats: 1, couldNotScan: 0, skipped: 0 } });
      history.insertMany([earlier, blind]);
      history.insertMany([detected], history.jobs.insert(job));
      history.recheck.files.link({ recordId: detected.id, recheckedFromId: earlier.id, firstSeenMs: Date.parse(earlier.queuedAt) });
      history.close();
    };
    const { real, page } = await start({ prepare: seedRecheck });
    const detail = page.getByTestId('detail-panel');
    const letter = rowFor(page, 'letter.txt');
    await letter.waitFor();
    // Still "clean" (verdictOf says why), never without the note.
    expect(await letter.getAttribute('data-verdict')).toBe('safe');
    await letter.click();
    await detail.getByTestId('self-test-failed').getByText(en['detail.selfTestFailed']).waitFor();
    await page.locator(`.row[data-scan-id="${detected.id}"]`).click();
    const linked = detail.getByTestId('rechecked-from');
    await linked.waitFor();
    expect(await linked.textContent()).toContain('Judged again after a signature update; earlier verdict: clean on ');
    expect(await detail.getByTestId('self-test-failed').count()).toBe(0);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await linked.getByRole('button', { name: en['detail.showEarlierScan'] }).click();
    await expect.poll(() => detail.locator('.detail__verdict .badge').textContent()).toBe(en['verdict.safe']);

    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await rowFor(page, 'letter.txt').click();
    await page.getByTestId('detail-panel').getByTestId('self-test-failed').getByText(de['detail.selfTestFailed']).waitFor();
    await page.locator(`.row[data-scan-id="${detected.id}"]`).click();
    await expect.poll(() => page.getByTestId('detail-panel').getByTestId('rechecked-from').textContent()).toContain('Nach einem Signatur-Update erneut geprüft; früheres Urteil: sauber am ');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
  });
});

// A second opinion by hash in the real renderer (Chromium) over the real core, with the key
// in a private gnome-keyring and a local stand-in for VirusTotal's v3 API: a file's detail has
// "Look up on VirusTotal" (a link the shell's allow list opens: VirusTotal's page for the
// SHA-256), says without a key where to add one, and after the key is added in Settings shows
// the last analysis (detections out of engines, its date), "not known to VirusTotal", and a
// refused key in clear words. The key never reaches the page. axe-clean, English and German.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../electron/history/history.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { formatDateTime } from '../../renderer/i18n/format.ts';
import { queuedRecord, type ScanRecord } from '../../shared/scans/record.ts';
import { startVirusTotalStandIn, type VirusTotalStandIn } from '../support/virustotal-stand-in.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { expectNoProblems, rowFor, useE2eApp } from './support/e2e-app.ts';

const { start } = useE2eApp({ prefix: 'verdict-e2e-virustotal-', engine: false, keyring: true });
const KEY = '5f0c7e1d2b3a49586776859a4b3c2d1e0f5f0c7e1d2b3a49586776859a4b3c2d';
const KNOWN = '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f';
const UNKNOWN = 'a'.repeat(64);
const LATER = 'b'.repeat(64);
const ANALYSED = 1_764_000_000;

function clean(fileName: string, sha256: string, at: string): ScanRecord {
  const id = randomUUID();
  return {
    ...queuedRecord({ id, path: `/home/user/${fileName}`, fileName, origin: 'drop', backend: 'local', externalReferenceId: `verdict/e2e/${id}`, queuedAt: at }),
    status: 'completed',
    safe: true,
    detailed: 'clean',
    sha256,
    completedAt: at,
  };
}

const seed = (dataDir: string) => {
  const history = openHistory(dataDir);
  history.insertMany([clean('known.exe', KNOWN, '2026-11-20T10:00:00.000Z'), clean('unknown.bin', UNKNOWN, '2026-11-20T10:00:01.000Z'), clean('later.doc', LATER, '2026-11-20T10:00:02.000Z')]);
  history.close();
};

const fill = (text: string, params: Record<string, string>) => Object.entries(params).reduce((out, [name, value]) => out.replace(`{${name}}`, value), text);

let standIn: VirusTotalStandIn;
beforeAll(async () => {
  standIn = await startVirusTotalStandIn(KEY);
  standIn.known.set(KNOWN, { malicious: 5, suspicious: 1, undetected: 60, harmless: 4, analysedAt: ANALYSED });
});
afterAll(async () => {
  await standIn?.close();
});

describe('VirusTotal in the detail', () => {
  it('links to the hash, shows the last analysis once a key is added in Settings, unknown and refused in words; en/de, axe', async () => {
    const { real, app, page } = await start({ prepare: seed, tuning: { virusTotal: { baseUrl: standIn.url } } });
    await rowFor(page, 'known.exe').click();
    const section = page.getByTestId('virustotal');
    const link = section.getByRole('link', { name: en['virusTotal.open'] });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`https://www.virustotal.com/gui/file/${KNOWN}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noreferrer noopener');
    await section.getByText(en['virusTotal.noKey']).waitFor();
    expect(standIn.requests).toEqual([]);

    // Settings › VirusTotal: the key typed once, then only its masked form.
    await page.getByRole('button', { name: en['nav.settings'] }).click();
    const settings = page.getByTestId('virustotal-settings');
    await settings.getByLabel(en['virusTotal.key']).fill(KEY);
    await settings.getByRole('button', { name: en['virusTotal.keySave'] }).click();
    await settings.getByText(fill(en['settings.apiKeyStored'], { masked: `••••••••${KEY.slice(-4)}` })).waitFor();
    expect(await settings.getByLabel(en['virusTotal.key']).inputValue()).toBe('');
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    await page.getByRole('button', { name: en['nav.scans'] }).click();
    await rowFor(page, 'known.exe').click();
    const analysis = page.getByTestId('virustotal-analysis');
    await analysis.getByText(fill(en['virusTotal.detectionsSuspicious'], { malicious: '5', engines: '70', suspicious: '1' })).waitFor();
    await analysis.getByText(fill(en['virusTotal.analysedAt'], { date: formatDateTime('en', new Date(ANALYSED * 1000).toISOString()) }), { exact: false }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await app.screenshot('virustotal-detail');

    await rowFor(page, 'unknown.bin').click();
    await analysis.getByText(en['virusTotal.unknown']).waitFor();
    expect(await analysis.getAttribute('data-kind')).toBe('unknown');

    // German.
    expect((await real.core.settings.update({ language: 'de' })).ok).toBe(true);
    await page.reload();
    await page.locator('html[lang=de]').waitFor();
    await rowFor(page, 'known.exe').click();
    await page.getByRole('link', { name: de['virusTotal.open'] }).waitFor();
    await analysis.getByText(fill(de['virusTotal.detectionsSuspicious'], { malicious: '5', engines: '70', suspicious: '1' })).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    // A key VirusTotal refuses (401), said plainly.
    expect((await real.core.virusTotal.setKey('f'.repeat(64))).ok).toBe(true);
    await rowFor(page, 'later.doc').click();
    await analysis.getByText(de['virusTotal.keyRefused']).waitFor();

    // The key never reached the page, and VirusTotal only ever heard GETs of hashes.
    expect(await page.content()).not.toContain(KEY.slice(8));
    expect(standIn.requests.map((r) => `${r.method} ${r.path} ${r.bodyBytes}`)).toEqual([
      `GET /api/v3/files/${KNOWN} 0`,
      `GET /api/v3/files/${UNKNOWN} 0`,
      `GET /api/v3/files/${LATER} 0`,
    ]);
    expectNoProblems(app);
  });
});

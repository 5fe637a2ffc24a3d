// The window's words in real use (issue 30), in Chromium against the real core: what a
// program said (freshclam's progress and its error, the keychain's error) is shown under
// a sentence in the UI's language and marked lang="en"; text that carries a state meets
// 4.5:1, disabled or not ("Updating signatures…", each job state); "built-in" never
// names the service on this computer while ClamAV scans; an interrupted job reads
// "Interrupted" with Resume. English and German, light and dark, a screenshot of each.
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CoreApi } from '../../shared/bridge/api.ts';
import type { JobProgress, JobState, JobStatus, JobUpdate } from '../../shared/jobs/job.ts';
import { ok } from '../../shared/result.ts';
import { translator, type Locale } from '../../renderer/i18n/messages.ts';
import { datedVersionLine, startClamdStandIn } from '../support/clamd-stand-in.ts';
import type { AppHarness } from './support/app-harness.ts';
import { expectNoProblems, useE2eApp } from './support/e2e-app.ts';
import type { RealCore } from './support/real-core.ts';
import { languageOf, paintedContrast } from './support/window-checks.ts';

const { start, work, closeAfterTest } = useE2eApp({ prefix: 'verdict-e2e-words-', engine: false });

const AA = 4.5;
const FRESHCLAM_LINE = 'Trying to retrieve CVD header from https://database.clamav.net/daily.cvd';
const FRESHCLAM_ERROR = "ERROR: Can't download daily.cvd from https://database.clamav.net/daily.cvd";
const KEYCHAIN_ERROR = 'No OS keychain available: install and unlock GNOME Keyring or KWallet (Secret Service), then try again (The name org.freedesktop.secrets was not provided by any .service files)';

async function setLanguage(real: RealCore, page: Page, language: Locale): Promise<void> {
  expect((await real.core.settings.update({ language })).ok).toBe(true);
  await page.reload();
  await page.locator(`html[lang=${language}]`).waitFor();
}

/** Light, then dark: `check` in each, with a screenshot named after both. */
async function inBothSchemes(app: AppHarness, name: string, check: (scheme: 'light' | 'dark') => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await app.page.emulateMedia({ colorScheme: scheme });
    await check(scheme);
    await app.screenshot(`${name}-${scheme}`);
  }
  await app.page.emulateMedia({ colorScheme: 'light' });
}

/** A freshclam that says it is fetching, waits for the test's word, then fails in its own words. */
async function freshclamStandIn(): Promise<{ path: string; finish(): Promise<void> }> {
  const script = path.join(work(), 'freshclam');
  const go = path.join(work(), 'freshclam-go');
  await writeFile(script, `#!/bin/sh\necho "${FRESHCLAM_LINE}"\nfor i in $(seq 1 600); do [ -e "${go}" ] && break; sleep 0.1; done\necho "${FRESHCLAM_ERROR}"\nexit 1\n`);
  await chmod(script, 0o755);
  return { path: script, finish: () => writeFile(go, '') };
}

describe('the window’s words', () => {
  it('freshclam’s progress and error under a sentence in the UI’s language, marked English; "Updating signatures…" readable; no "built-in" while ClamAV scans', async () => {
    const standIn = await startClamdStandIn(path.join(work(), 'own-clamd'), datedVersionLine(240).line);
    closeAfterTest(standIn);
    const freshclam = await freshclamStandIn();
    const prepare = (dataDir: string) => writeFile(path.join(dataDir, 'clamd.conf'), `LocalSocket ${standIn.socketPath}\n`);
    const { real, app, page } = await start({
      prepare,
      localService: { engine: 'clamd', clamdSocket: standIn.socketPath },
      tuning: { engine: { autoUpdate: false, freshclam: { freshclamPath: freshclam.path, maxAttempts: 1 } } },
    });
    const line = page.getByTestId('protection-line');
    await line.locator('[data-state=outdated]').waitFor({ timeout: 30_000 });
    await page.getByTestId('protection-action').click();

    for (const language of ['en', 'de'] as const) {
      const t = translator(language).t;
      await setLanguage(real, page, language);
      // ClamAV scans: no word of the window calls anything "built-in" (or "eingebaut").
      expect(await page.locator('body').innerText()).not.toMatch(/built-in|eingebaut/i);
      const action = page.getByTestId('protection-action');
      await expect.poll(() => action.innerText(), { timeout: 30_000 }).toBe(t('engine.updating'));
      await inBothSchemes(app, `words-updating-line-${language}`, async (scheme) => {
        expect(await paintedContrast(action), `"Updating signatures…", ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
      });
      await page.getByRole('button', { name: t('nav.settings') }).click();
      const status = page.getByTestId('engine-update-status');
      const said = status.getByTestId('tool-words');
      await said.locator('samp', { hasText: FRESHCLAM_LINE }).waitFor({ timeout: 30_000 });
      // The sentence in the UI's language first, then freshclam's words, in English.
      expect(await status.innerText()).toMatch(new RegExp(`^${t('engine.updating')}`));
      expect(await languageOf(said.locator('samp'))).toBe('en');
      expect(await said.locator('.tool-words__source').innerText()).toBe(t('tool.freshclam'));
      expect(await languageOf(status)).toBe(language);
      expect(await page.locator('body').innerText()).not.toMatch(/built-in|eingebaut/i);
      await page.getByTestId('engine-settings').scrollIntoViewIfNeeded();
      await inBothSchemes(app, `words-freshclam-progress-${language}`, async (scheme) => {
        expect(await paintedContrast(page.getByTestId('engine-update')), `Update signatures now (busy), ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
        expect(await paintedContrast(said.locator('samp')), `freshclam's words, ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
      });
      await page.getByRole('button', { name: t('nav.scans') }).click();
    }

    // freshclam fails: the outcome in German, its own words under it in English.
    await freshclam.finish();
    await page.getByRole('button', { name: translator('de').t('nav.settings') }).click();
    const outcome = page.getByTestId('engine-update-status').locator('[data-outcome]');
    await outcome.waitFor({ timeout: 30_000 });
    const words = outcome.getByTestId('tool-words').locator('samp');
    expect(await words.innerText()).toContain(FRESHCLAM_ERROR);
    expect(await languageOf(words)).toBe('en');
    expect(await outcome.innerText()).not.toMatch(/^ERROR/);
    await outcome.scrollIntoViewIfNeeded();
    await inBothSchemes(app, 'words-freshclam-failed-de', async (scheme) => {
      expect(await paintedContrast(words), `freshclam's error, ${scheme}`).toBeGreaterThanOrEqual(AA);
    });
    expectNoProblems(app);
  });

  it('the keychain’s error and a watched folder’s problem under a sentence in the UI’s language, marked English', async () => {
    const keychainFails = (core: CoreApi): CoreApi => ({ ...core, settings: { ...core.settings, keyStatus: async () => ok({ isSet: false, masked: null, keychainError: KEYCHAIN_ERROR }) } });
    const { real, app, page } = await start({}, 'light', {}, keychainFails);
    expect((await real.core.settings.update({ backend: { kind: 'remote', baseUrl: 'https://scan.example.invalid' } })).ok).toBe(true);
    // A watched folder that is not there: the core's English sentence about it under one in the UI's language.
    expect((await real.core.watch.add({ path: path.join(work(), 'not-there') })).ok).toBe(true);
    for (const language of ['en', 'de'] as const) {
      const t = translator(language).t;
      await setLanguage(real, page, language);
      await page.getByRole('button', { name: t('nav.settings') }).click();
      const error = page.getByTestId('keychain-error');
      await error.waitFor();
      expect(await error.innerText()).toMatch(new RegExp(`^${t('settings.keychainError')}`));
      expect(await error.locator('samp').innerText()).toBe(KEYCHAIN_ERROR);
      expect(await languageOf(error.locator('samp'))).toBe('en');
      expect(await languageOf(error.locator('.tool-words__source'))).toBe(language);
      const watchProblem = page.getByTestId('watch-problem');
      await watchProblem.waitFor({ timeout: 30_000 });
      expect((await watchProblem.innerText()).trim().startsWith(t('watch.problem.missing'))).toBe(true);
      expect(await watchProblem.locator('.tool-words__source').innerText()).toBe(t('tool.core'));
      expect(await languageOf(watchProblem.locator('samp'))).toBe('en');
      expect(await languageOf(watchProblem)).toBe(language);
      await watchProblem.scrollIntoViewIfNeeded();
      await app.screenshot(`words-watch-problem-${language}`);
      await error.scrollIntoViewIfNeeded();
      await inBothSchemes(app, `words-keychain-${language}`, async (scheme) => {
        expect(await paintedContrast(error.locator('samp')), `the keychain's words, ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
      });
    }
    expectNoProblems(app);
  });

  it('each job state reads 4.5:1 in light and dark; an interrupted job reads "Interrupted" with Resume, which goes on with it', async () => {
    const jobs = new JobsShown();
    const { real, app, page } = await start({}, 'light', {}, (core) => jobs.wrap(core));
    for (const language of ['en', 'de'] as const) {
      const t = translator(language).t;
      await setLanguage(real, page, language);
      const interrupted = page.locator(`[data-job-id="${jobId('interrupted')}"]`);
      await interrupted.locator('.job__status', { hasText: t('jobs.status.interrupted') }).waitFor();
      expect(await interrupted.getByRole('button', { name: t('jobs.resume') }).count()).toBe(1);
      expect(await interrupted.getByRole('button', { name: t('jobs.cancel') }).count()).toBe(1);
      expect(await interrupted.getByRole('button', { name: t('jobs.pause') }).count()).toBe(0);
      // It says what happened and what Resume does; no pace or time left while it does not run.
      expect(await interrupted.locator('.job__note').innerText()).toBe(t('jobs.interruptedHint'));
      expect(await interrupted.locator('[data-fact=speed], [data-fact=eta]').count()).toBe(0);
      expect(await interrupted.locator('[data-fact=duration] dt').innerText()).toBe(t('jobs.fact.duration'));
      expect(await interrupted.locator('progress').getAttribute('value')).not.toBeNull();
      await interrupted.scrollIntoViewIfNeeded();
      await inBothSchemes(app, `words-job-states-${language}`, async (scheme) => {
        for (const status of STATUSES) {
          const pill = page.locator(`[data-job-id="${jobId(status)}"] .job__status`);
          expect(await paintedContrast(pill), `${status}, ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
        }
        expect(await paintedContrast(page.locator('.list__count')), `the list's count, ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
        expect(await paintedContrast(interrupted.locator('.job__note')), `the interrupted job's note, ${language}, ${scheme}`).toBeGreaterThanOrEqual(AA);
      });
    }
    // Resume: the row goes on running, and focus stays on the button that is now Pause.
    const interrupted = page.locator(`[data-job-id="${jobId('interrupted')}"]`);
    await interrupted.getByRole('button', { name: translator('de').t('jobs.resume') }).focus();
    await page.keyboard.press('Enter');
    await interrupted.and(page.locator('[data-status=running]')).waitFor();
    expect(await page.evaluate('document.activeElement?.textContent')).toBe(translator('de').t('jobs.pause'));
    expectNoProblems(app);
  });
});

const STATUSES: readonly JobStatus[] = ['running', 'paused', 'interrupted', 'completed', 'cancelled'];
const jobId = (status: JobStatus): number => 9001 + STATUSES.indexOf(status);

/** One job in each state, shown to the window in place of the core's own (which has none). */
class JobsShown {
  #listeners = new Set<(update: JobUpdate) => void>();
  #jobs = new Map<number, JobState>(STATUSES.map((status) => [jobId(status), jobIn(status)]));

  wrap(core: CoreApi): CoreApi {
    const progress = (job: JobState): JobProgress => ({ job, filesPerSecond: job.status === 'running' ? 120 : 0, etaSeconds: job.status === 'running' ? 90 : null });
    return {
      ...core,
      scanJobs: {
        ...core.scanJobs,
        list: async () => ok([...this.#jobs.values()].map(progress)),
        onEvent: (listener) => {
          this.#listeners.add(listener);
          return () => this.#listeners.delete(listener);
        },
        resume: async (id) => {
          const job = { ...this.#jobs.get(id)!, status: 'running' as const };
          this.#jobs.set(id, job);
          for (const listener of this.#listeners) listener({ type: 'progress', progress: progress(job) });
          return ok(progress(job));
        },
      },
    };
  }
}

function jobIn(status: JobStatus): JobState {
  const final = status === 'completed' || status === 'cancelled';
  return {
    id: jobId(status),
    kind: status === 'interrupted' ? 'full' : 'custom',
    roots: ['/home/user'],
    excluded: [],
    origin: 'dialog',
    status,
    walkComplete: final || status === 'interrupted',
    counts: { found: 4200, bytes: 9_000_000, scanned: final ? 4200 : 1500, threats: 0, couldNotScan: 0, skipped: 0 },
    startedAt: new Date(Date.now() - 3_600_000).toISOString(),
    finishedAt: final ? new Date().toISOString() : null,
    activeMs: 600_000,
    currentFolder: final ? null : '/home/user/Documents',
    runningSince: status === 'running' ? Date.now() : null,
  };
}

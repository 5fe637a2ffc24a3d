// A saved scan's job in the window (issue 29 §3): named after the saved scan (shown as a name:
// a bidi control cannot disguise it), and the rows of the folders its settings leave out say
// so, never "by default": English reads as the core's sentence, German is German.
import { describe, expect, it } from 'vitest';
import { jobExclusionError, savedScanExclusionError } from '../../electron/jobs/default-exclusions.ts';
import { exclusionText } from '../../renderer/detail/exclusion-text.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { jobName, summaryText } from '../../renderer/jobs/job-text.ts';
import type { JobState } from '../../shared/jobs/job.ts';

const en = translator('en');
const de = translator('de');

const job: JobState = {
  id: 7,
  kind: 'custom',
  roots: ['/home/alice/Photos'],
  excluded: ['/home/alice/Photos/cache'],
  origin: 'schedule',
  status: 'completed',
  walkComplete: true,
  counts: { found: 3, bytes: 30, scanned: 2, threats: 0, couldNotScan: 0, skipped: 1 },
  startedAt: '2026-11-28T03:00:00.000Z',
  finishedAt: '2026-11-28T03:01:00.000Z',
  activeMs: 60_000,
  currentFolder: null,
  runningSince: null,
  savedScan: { name: 'Photos', excluded: ['/home/alice/Photos/cache'] },
};

describe("a saved scan's job in the window", () => {
  it('is named after the saved scan, in en and de', () => {
    expect(jobName(en.t, job)).toBe('Saved scan “Photos”');
    expect(jobName(de.t, job)).toBe('Gespeicherte Prüfung „Photos“');
    expect(jobName(en.t, { ...job, savedScan: { name: 'Fotos\u202Egpj.exe', excluded: [] } })).toBe('Saved scan “Fotos⟨U+202E⟩gpj.exe”');
    expect(summaryText(en, job)).toMatch(/^Saved scan “Photos” finished\. Scanned: 2/);
    expect(jobName(en.t, { kind: 'custom' })).toBe('Custom scan');
  });

  it("words a folder its settings leave out as the saved scan's, not as a default", () => {
    const error = savedScanExclusionError('/home/alice/Photos/cache', 'Photos');
    expect(exclusionText(en, error)).toBe(error.message);
    expect(error.message).toBe('Not scanned: /home/alice/Photos/cache is excluded in the settings of the saved scan “Photos”; nothing in this folder was looked at.');
    expect(exclusionText(de, error)).toBe(
      'Nicht geprüft: /home/alice/Photos/cache ist ausgeschlossen (Einstellungen der gespeicherten Prüfung „Photos“); nichts in diesem Ordner wurde angesehen.',
    );
    expect(exclusionText(en, jobExclusionError('/home/alice/.cache'))).not.toContain('saved scan');
  });
});

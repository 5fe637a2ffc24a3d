// A drive job in the window (issue 29 §2): named after its drive's label (shown as a name:
// a bidi control cannot disguise it), and a job its drive's removal ended says so, in en and de.
import { describe, expect, it } from 'vitest';
import type { JobState } from '../../shared/jobs/job.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { jobName, statusKey, summaryText } from '../../renderer/jobs/job-text.ts';

const job: JobState = {
  id: 3,
  kind: 'drive',
  roots: ['/media/alice/STICK'],
  excluded: [],
  origin: 'dialog',
  status: 'cancelled',
  walkComplete: false,
  counts: { found: 40, bytes: 4000, scanned: 12, threats: 1, couldNotScan: 3, skipped: 0 },
  startedAt: '2026-11-28T03:00:00.000Z',
  finishedAt: '2026-11-28T03:01:00.000Z',
  activeMs: 60_000,
  currentFolder: null,
  runningSince: null,
  drive: { label: 'STICK', uuid: '3A2F-1C0D' },
  stopReason: 'drive_removed',
};

describe('a drive job in the window', () => {
  it('is named after its label and says its drive was removed, in en and de', () => {
    const en = translator('en');
    const de = translator('de');
    expect(jobName(en.t, job)).toBe('Drive “STICK”');
    expect(jobName(de.t, job)).toBe('Laufwerk „STICK“');
    expect(jobName(en.t, { ...job, drive: { label: 'FOTOS\u202Egpj.exe', uuid: null } })).toBe('Drive “FOTOS⟨U+202E⟩gpj.exe”');
    expect(en.t(statusKey(job))).toBe('Cancelled: the drive was removed');
    expect(de.t(statusKey(job))).toBe('Abgebrochen: Das Laufwerk wurde entfernt');
    expect(en.t(statusKey({ ...job, stopReason: undefined }))).toBe('Cancelled');
    expect(summaryText(en, job)).toMatch(/^Drive “STICK” cancelled\. Scanned: 12 · Threats: 1 · Could not scan: 3/);
    expect(jobName(en.t, { kind: 'full' })).toBe('Full scan');
  });
});

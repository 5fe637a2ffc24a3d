// The notice at the end of a saved scan's job (issue 29 §3): named after the saved scan, in en
// and de, shown like every name (a bidi control cannot disguise it); other jobs keep their kind.
import { describe, expect, it } from 'vitest';
import type { JobState } from '../../../shared/jobs/job.ts';
import { jobNotice } from '../../../electron/shell/notification-rules.ts';
import { textsFor } from '../../../electron/shell/texts.ts';

const job: Pick<JobState, 'kind' | 'status' | 'counts' | 'activeMs' | 'savedScan'> = {
  kind: 'custom',
  status: 'completed',
  counts: { found: 3, bytes: 30, scanned: 2, threats: 1, couldNotScan: 0, skipped: 1 },
  activeMs: 60_000,
  savedScan: { name: 'Photos', excluded: [] },
};

describe("a saved scan's job notice", () => {
  it('names the saved scan in en and de', () => {
    expect(jobNotice(job, textsFor('en'))).toMatchObject({ kind: 'job', title: 'Saved scan “Photos” finished', body: expect.stringMatching(/^2 files scanned, 1 threat/) });
    expect(jobNotice({ ...job, status: 'cancelled' }, textsFor('de'))?.title).toBe('Gespeicherte Prüfung „Photos“ abgebrochen');
    expect(jobNotice({ ...job, savedScan: { name: 'Fotos\u202Egpj.exe', excluded: [] } }, textsFor('en'))?.title).toBe('Saved scan “Fotos⟨U+202E⟩gpj.exe” finished');
    expect(jobNotice({ ...job, savedScan: undefined }, textsFor('en'))?.title).toBe('Custom scan finished');
    expect(jobNotice({ ...job, status: 'running' }, textsFor('en'))).toBeNull();
  });
});

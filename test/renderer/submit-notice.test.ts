// The notice after a submission: refused paths are reported as such (and stay on
// screen as an error), never folded into "queued".
import { describe, expect, it } from 'vitest';
import type { SubmitSummary } from '../../shared/scans/record.ts';
import { en } from '../../renderer/i18n/en.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import { submitNotice } from '../../renderer/scans/submit-notice.ts';

/** Counts not given are 0. */
const say = (counts: Partial<SubmitSummary> & { queued: number }) => {
  const notice = submitNotice({ skipped: 0, linksNotFollowed: 0, failed: 0, ...counts });
  return { kind: notice.kind, text: translator('en').t(notice.key, notice.params) };
};

describe('submitNotice', () => {
  it('counts queued files, in the singular and the plural', () => {
    expect(say({ queued: 1 })).toEqual({ kind: 'info', text: '1 file queued' });
    expect(say({ queued: 3, skipped: 0, failed: 0 })).toEqual({ kind: 'info', text: '3 files queued' });
  });

  it('names files left out by an exclusion', () => {
    expect(say({ queued: 2, skipped: 1 })).toEqual({ kind: 'info', text: '2 queued, 1 skipped by your exclusions' });
    expect(say({ queued: 0, skipped: 2 }).text).toMatch(/^Nothing queued: 2 files are excluded/);
  });

  it('names links out of the chosen folder as not followed, not as excluded by a setting', () => {
    expect(say({ queued: 2, linksNotFollowed: 1 })).toEqual({ kind: 'info', text: '2 queued, 1 skipped: 1 link leads out of the folder you chose and was not followed.' });
    expect(say({ queued: 0, skipped: 1, linksNotFollowed: 2 }).text).toBe('0 queued, 3 skipped: 2 links lead out of the folder you chose and were not followed.');
    // Refused paths still make it an error; the links count as skipped there.
    expect(say({ queued: 1, linksNotFollowed: 1, failed: 1 })).toEqual({ kind: 'error', text: '1 queued, 1 skipped, 1 could not be scanned: see “Could not scan” in the list for why.' });
  });

  it('says how many could not be scanned, as an error that stays, whatever else was queued', () => {
    expect(say({ queued: 1, skipped: 0, failed: 6 })).toEqual({ kind: 'error', text: '1 queued, 0 skipped, 6 could not be scanned: see “Could not scan” in the list for why.' });
    expect(say({ queued: 0, failed: 1 }).kind).toBe('error');
  });

  it('says when nothing new was queued', () => {
    expect(say({ queued: 0 })).toEqual({ kind: 'info', text: en['drop.nothingQueued'] });
  });
});

// A failed core call as the window tells it: a full data disk names the folder and what to
// do in the UI's language (not "Something went wrong" over English words); any other
// failure keeps the core's words under the generic sentence.
import { describe, expect, it } from 'vitest';
import { notifyFailure } from '../../renderer/bridge/error-notice.ts';
import { de } from '../../renderer/i18n/de.ts';
import { en } from '../../renderer/i18n/en.ts';
import { createVerdictStore } from '../../renderer/store/store.ts';

describe('notifyFailure', () => {
  it('tells a full data disk with its folder, in en and de', () => {
    const store = createVerdictStore();
    notifyFailure(store.getState(), { code: 'data_disk_full', message: 'Scan failed: the disk is full', params: { dataDir: '/home/ann/.config/Verdict' } });
    expect(store.getState().notice).toMatchObject({ kind: 'error', key: 'error.dataDiskFull', params: { dir: '/home/ann/.config/Verdict' } });
    expect(store.getState().notice?.said).toBeUndefined();
    expect(en['error.dataDiskFull']).toContain('{dir}');
    expect(de['error.dataDiskFull']).toContain('{dir}');
    expect(de['error.dataDiskFull']).toContain('voll');
  });

  it('keeps any other failure generic, with the core words attached', () => {
    const store = createVerdictStore();
    notifyFailure(store.getState(), { code: 'settings_write_failed', message: 'ENOSPC: /x/settings.json' });
    expect(store.getState().notice).toMatchObject({ kind: 'error', key: 'error.generic', said: { tool: 'core', words: 'ENOSPC: /x/settings.json' } });
  });
});

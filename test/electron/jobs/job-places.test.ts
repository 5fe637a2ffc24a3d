// Where each kind of job looks and what a full scan leaves out, per OS (the Linux
// ones on real folders), and the ETA paced by the last job of the same kind.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultExclusions } from '../../../electron/jobs/default-exclusions.ts';
import { progressOf } from '../../../electron/jobs/job-progress.ts';
import { quickCandidates, rootsFor, withoutNested } from '../../../electron/jobs/job-roots.ts';
import { emptyCounts, type JobState } from '../../../electron/jobs/job-state.ts';
import { tempDir } from '../scans/harness.ts';
import { jobStateFor } from './job-kit.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('verdict-job-places-');
});
afterEach(async () => {
  await dir.remove();
});

describe('job places', () => {
  it('quick scans look in Downloads, Desktop, Documents and the temp folder of each OS', () => {
    expect(quickCandidates({ platform: 'darwin', home: '/Users/ann', env: { TMPDIR: '/var/folders/x/T/' } })).toEqual([
      '/Users/ann/Downloads',
      '/Users/ann/Desktop',
      '/Users/ann/Documents',
      '/var/folders/x/T',
    ]);
    expect(quickCandidates({ platform: 'win32', home: 'C:\\Users\\ann', env: { TEMP: 'C:\\Users\\ann\\AppData\\Local\\Temp' } }).at(-1)).toBe('C:\\Users\\ann\\AppData\\Local\\Temp');
    expect(quickCandidates({ platform: 'linux', home: '/home/ann', env: { XDG_DOWNLOAD_DIR: '/home/ann/Herunterladen' } })).toEqual([
      '/home/ann/Herunterladen',
      '/home/ann/Desktop',
      '/home/ann/Documents',
      '/tmp',
    ]);
  });

  it('keeps only the quick places that exist, each once and none inside another', async () => {
    const home = join(dir.path, 'home');
    await mkdir(join(home, 'Documents'), { recursive: true });
    await mkdir(join(home, 'Downloads'));
    const roots = await rootsFor('quick', { platform: 'linux', home, env: { TMPDIR: join(home, 'Downloads', 'tmp'), XDG_DOWNLOAD_DIR: '' } });
    expect(roots).toEqual([join(home, 'Downloads'), join(home, 'Documents')]);
    expect(withoutNested(['/a', '/a/b', '/c', '/a'])).toEqual(['/a', '/c']);
  });

  it('a full scan leaves out caches and trash per OS, and every kind leaves out Verdict’s data folder', () => {
    expect(defaultExclusions('full', { platform: 'linux', home: '/home/ann', env: {} }, '/home/ann/.config/Verdict')).toEqual([
      '/home/ann/.cache',
      '/home/ann/.local/share/Trash',
      '/home/ann/.thumbnails',
      '/home/ann/.config/Verdict',
    ]);
    expect(defaultExclusions('full', { platform: 'darwin', home: '/Users/ann', env: {} }, '/d')).toEqual(['/Users/ann/Library/Caches', '/Users/ann/.Trash', '/d']);
    expect(defaultExclusions('custom', { platform: 'linux', home: '/home/ann', env: {} }, '/d')).toEqual(['/d']);
    // Given the job's folders, only what lies inside them: a data folder elsewhere is never met, so never listed.
    expect(defaultExclusions('custom', { platform: 'linux', home: '/home/ann', env: {} }, '/d', ['/home/ann/Pictures'])).toEqual([]);
    expect(defaultExclusions('custom', { platform: 'linux', home: '/home/ann', env: {} }, '/home/ann/d', ['/home/ann'])).toEqual(['/home/ann/d']);
  });
});

describe('job progress', () => {
  const job = (over: Partial<JobState>): JobState => jobStateFor({ id: 2, kind: 'full', roots: ['/home/ann'], ...over });

  it('has no ETA while the walk still finds files, then one paced by the last job of the kind', () => {
    const running = job({ counts: { ...emptyCounts(), found: 1_000, scanned: 400 }, activeMs: 40_000 });
    expect(progressOf(running, null, 0)).toMatchObject({ filesPerSecond: 10, etaSeconds: null });
    const walked = { ...running, walkComplete: true };
    expect(progressOf(walked, null, 0).etaSeconds).toBe(60);
    const lastRun = job({ id: 1, status: 'completed', counts: { ...emptyCounts(), found: 2_000, scanned: 2_000 }, activeMs: 100_000 });
    expect(progressOf(walked, lastRun, 0).etaSeconds).toBe(30);
  });
});

// Folders the exclusions cover inside a watched folder: not watched at all (no
// inotify watches, no events), siblings are; an excluded folder that turns up is
// reported once, not on every restart; new rules take effect without a restart of the app.
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExclusionMatcher, type ExclusionMatcher } from '../../../electron/exclusions/exclusion-matcher.ts';
import type { ExclusionRules } from '../../../shared/settings/protection.ts';
import { collect, folder, waitFor, type Collector } from './support/collector.ts';
import { useTempFolders } from './support/temp-folders.ts';

const { tempDir, onCleanup } = useTempFolders();

const rules = (partial: Partial<ExclusionRules>): ExclusionRules => ({ paths: [], globs: [], extensions: [], ...partial });

/** Global rules that can be swapped while the watcher runs (as the core rebuilds its matcher). */
function switchableRules(initial: Partial<ExclusionRules>) {
  let matcher: ExclusionMatcher = createExclusionMatcher({ global: { exclusions: rules(initial) } });
  return {
    exclusions: () => matcher,
    set(next: Partial<ExclusionRules>) {
      matcher = createExclusionMatcher({ global: { exclusions: rules(next) } });
    },
  };
}

interface Watching extends Collector {
  excluded: string[];
}

async function watching(options: Parameters<typeof collect>[0]): Promise<Watching> {
  const excluded: string[] = [];
  const collector = collect({ ...options, onExcludedFolder: (found) => void excluded.push(found.path) });
  onCleanup(() => collector.close());
  await collector.watcher.started();
  for (const status of collector.watcher.statuses()) expect(status.state, status.error ?? '').toBe('watching');
  return { ...collector, excluded };
}

/** A project with a node_modules of `packages` packages, each two folders deep. */
async function project(dir: string, packages: number): Promise<void> {
  await fs.mkdir(path.join(dir, 'src'), { recursive: true });
  await fs.writeFile(path.join(dir, 'src', 'index.js'), 'main');
  for (let i = 0; i < packages; i++) {
    await fs.mkdir(path.join(dir, 'node_modules', `pkg-${i}`, 'lib'), { recursive: true });
    await fs.writeFile(path.join(dir, 'node_modules', `pkg-${i}`, 'lib', 'index.js'), `package ${i}`);
  }
}

/** inotify watches this process holds (Linux: one `inotify wd:` line per watch in the fd's fdinfo). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // The fd closed meanwhile.
    }
  }
  return count;
}

describe('excluded folders inside a watched folder', () => {
  it('are not watched: a file written there is never reported, one in a sibling folder is', async () => {
    const dir = await tempDir();
    await project(dir, 20);
    const c = await watching({ folders: [folder('a', dir)], ...switchableRules({ globs: ['node_modules'] }) });
    await fs.writeFile(path.join(dir, 'node_modules', 'pkg-3', 'lib', 'new.js'), 'written into node_modules');
    await fs.mkdir(path.join(dir, 'node_modules', 'pkg-new'));
    await fs.writeFile(path.join(dir, 'node_modules', 'pkg-new', 'index.js'), 'a new package');
    await fs.writeFile(path.join(dir, 'src', 'new.js'), 'written into src');
    await c.waitForReport(path.join(dir, 'src', 'new.js'));
    await c.barrier(dir);
    expect(c.files.filter((file) => file.path.includes(`${path.sep}node_modules${path.sep}`))).toEqual([]);
    // It was there before watching started (and nothing is reported from before): not listed.
    expect(c.excluded).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('hold no inotify watches', async () => {
    const pruned = await tempDir();
    const full = await tempDir();
    await project(pruned, 60);
    await project(full, 60);
    const before = inotifyWatches();
    const c = await watching({ folders: [folder('a', pruned)], ...switchableRules({ globs: ['node_modules'] }) });
    // The folder and src/ (node_modules and its 120 folders are not watched).
    expect(inotifyWatches() - before).toBeLessThanOrEqual(3);
    await c.close();
    await waitFor('the watches to be released', () => inotifyWatches() <= before);

    // The same tree without the rule: a watch per folder. (Proves the count means something.)
    const control = await watching({ folders: [folder('b', full)] });
    expect(inotifyWatches() - before).toBeGreaterThanOrEqual(120);
    await control.close();
  });

  it('an excluded folder created while watching is reported once, and nothing in it', async () => {
    const dir = await tempDir();
    await fs.mkdir(path.join(dir, 'app'));
    const c = await watching({ folders: [folder('a', dir)], ...switchableRules({ globs: ['node_modules'], paths: [path.join(dir, 'private')] }) });
    await fs.mkdir(path.join(dir, 'app', 'node_modules', 'left-pad'), { recursive: true });
    await fs.writeFile(path.join(dir, 'app', 'node_modules', 'left-pad', 'index.js'), 'pad');
    await fs.mkdir(path.join(dir, 'private'));
    await fs.writeFile(path.join(dir, 'private', 'diary.txt'), 'dear diary');
    await waitFor('both excluded folders to be reported', () => c.excluded.length >= 2);
    // More writes there change nothing.
    await fs.writeFile(path.join(dir, 'app', 'node_modules', 'more.js'), 'more');
    await fs.writeFile(path.join(dir, 'private', 'more.txt'), 'more');
    await c.barrier(dir);
    expect(c.excluded.sort()).toEqual([path.join(dir, 'app', 'node_modules'), path.join(dir, 'private')].sort());
    expect(c.files.map((file) => path.relative(dir, file.path)).filter((name) => !name.startsWith('barrier'))).toEqual([]);
  });

  it('is listed by a start that reports what is there, and by a relaunch only if it changed since', async () => {
    const dir = await tempDir();
    await project(dir, 3);
    const c = await watching({ folders: [folder('a', dir, { scanExisting: true })], ...switchableRules({ globs: ['node_modules'] }) });
    await c.waitForReport(path.join(dir, 'src', 'index.js'));
    await waitFor('node_modules to be reported', () => c.excluded.length === 1);
    await c.barrier(dir);
    expect(c.excluded).toEqual([path.join(dir, 'node_modules')]);
    await c.close();

    // Relaunched after the last change (the app last watched after node_modules changed): not again.
    const later = await watching({ folders: [folder('a', dir, { scanExisting: true })], catchUpSince: Date.now() + 60_000, ...switchableRules({ globs: ['node_modules'] }) });
    await later.barrier(dir);
    expect(later.excluded).toEqual([]);
    await later.close();

    // Relaunched when it had changed since: listed once more.
    const earlier = await watching({ folders: [folder('a', dir)], catchUpSince: Date.now() - 60_000, ...switchableRules({ globs: ['node_modules'] }) });
    await waitFor('node_modules to be reported again', () => earlier.excluded.length === 1);
    await earlier.barrier(dir);
    expect(earlier.excluded).toEqual([path.join(dir, 'node_modules')]);
  });

  it('follows changed rules: a newly excluded folder stops being watched, a no longer excluded one is watched again', async () => {
    const dir = await tempDir();
    await fs.mkdir(path.join(dir, 'cache'));
    await fs.mkdir(path.join(dir, 'build'));
    const switchable = switchableRules({ globs: ['build/**'] });
    const c = await watching({ folders: [folder('a', dir)], ...switchable });
    await fs.writeFile(path.join(dir, 'build', 'before.bin'), 'excluded');
    await fs.writeFile(path.join(dir, 'cache', 'before.bin'), 'watched');
    await c.waitForReport(path.join(dir, 'cache', 'before.bin'));
    await c.barrier(dir);
    expect(c.reportsOf(path.join(dir, 'build', 'before.bin'))).toEqual([]);

    const statesBefore = c.history.length;
    switchable.set({ globs: ['cache'] });
    c.watcher.exclusionsChanged();
    await waitFor('the folder to start over', () => c.history.slice(statesBefore).some((statuses) => statuses[0]?.state === 'starting'));
    await c.waitForState('a', 'watching');
    await fs.writeFile(path.join(dir, 'build', 'after.bin'), 'now watched');
    await fs.writeFile(path.join(dir, 'cache', 'after.bin'), 'now excluded');
    await c.waitForReport(path.join(dir, 'build', 'after.bin'));
    await c.barrier(dir);
    expect(c.reportsOf(path.join(dir, 'cache', 'after.bin'))).toEqual([]);

    // Unchanged folder-excluding rules (an extension added) do not start the folder over.
    const statesNow = c.history.length;
    switchable.set({ globs: ['cache'], extensions: ['iso'] });
    c.watcher.exclusionsChanged();
    await c.barrier(dir);
    expect(c.history.slice(statesNow).some((statuses) => statuses.some((status) => status.state === 'starting'))).toBe(false);
  });
});

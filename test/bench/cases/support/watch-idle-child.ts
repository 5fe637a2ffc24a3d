// Child program of the watcher idle case: watches one tree, either with our
// folder watcher or with chokidar alone (the chokidar options our watcher
// uses, without our settle queue, ignore rules or checks), then stays idle.
// Prints `{"ready": ms}` when ready, then one JSON line with the idle figures.
import { parseArgs } from 'node:util';
import { watch } from 'chokidar';
import { watchedFolderSchema } from '../../../../shared/settings/settings.ts';
import { createFolderWatcher } from '../../../../electron/watch/folder-watcher.ts';

const { values } = parseArgs({ options: { mode: { type: 'string' }, dir: { type: 'string' }, 'idle-ms': { type: 'string' } } });
const dir = values.dir!;
const idleMs = Number(values['idle-ms']);
let events = 0;
const started = performance.now();
let close: () => Promise<void>;
if (values.mode === 'ours') {
  const watcher = createFolderWatcher({
    // The settings' defaults for a new folder (recursive, no ignore patterns, not scanning what is there).
    folders: [watchedFolderSchema.parse({ id: 'bench', path: dir })],
    onReady: () => void events++,
  });
  await watcher.started();
  const state = watcher.statuses()[0]?.state;
  if (state !== 'watching') throw new Error(`our watcher is ${state}: ${watcher.statuses()[0]?.error}`);
  close = () => watcher.close();
} else {
  const watcher = watch(dir, { ignoreInitial: true, followSymlinks: false, atomic: false, awaitWriteFinish: false, alwaysStat: true, persistent: true });
  watcher.on('add', () => void events++);
  watcher.on('change', () => void events++);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  close = () => watcher.close();
}
const readyMs = performance.now() - started;
console.log(JSON.stringify({ ready: readyMs }));

const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
await new Promise((resolve) => setTimeout(resolve, idleMs));
const cpu = process.cpuUsage(cpuBefore);
const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)) * 100;
const memory = process.memoryUsage();
await close();
console.log(JSON.stringify({ readyMs, cpuPercent, rssMiB: memory.rss / 1024 / 1024, heapMiB: memory.heapUsed / 1024 / 1024, events }));
process.exit(0);

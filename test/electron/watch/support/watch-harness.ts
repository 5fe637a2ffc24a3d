// Runs a folder watcher in a child process, for scenarios the test process cannot
// set up on itself: another user (permission denied while running as root) or a
// user namespace with a tiny inotify watch limit (ENOSPC). Prints one JSON line per
// status change and per ready file; reads commands from stdin, one JSON per line.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { WatchedFolder } from '../../../../shared/settings/settings.ts';
import { createFolderWatcher } from '../../../../electron/watch/folder-watcher.ts';

export interface HarnessConfig {
  folders: WatchedFolder[];
  settleMs: number;
  checkIntervalMs: number;
  retryMs: { initial: number; max: number };
  /** Written to /proc/sys/user/max_inotify_watches first (inside a user namespace only). */
  inotifyWatchLimit?: number;
}

export type HarnessCommand = { cmd: 'inotifyWatchLimit'; value: number } | { cmd: 'close' };

const INOTIFY_LIMIT_FILE = '/proc/sys/user/max_inotify_watches';
const print = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const config = JSON.parse(process.argv[2] ?? '{}') as HarnessConfig;
if (config.inotifyWatchLimit !== undefined) writeFileSync(INOTIFY_LIMIT_FILE, String(config.inotifyWatchLimit));

const watcher = createFolderWatcher({
  folders: config.folders,
  settleMs: config.settleMs,
  checkIntervalMs: config.checkIntervalMs,
  retryMs: config.retryMs,
  onReady: (file) => print({ type: 'ready', file }),
});
watcher.onStatus((statuses) => print({ type: 'status', statuses }));
print({ type: 'status', statuses: watcher.statuses() });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as HarnessCommand;
  if (command.cmd === 'inotifyWatchLimit') writeFileSync(INOTIFY_LIMIT_FILE, String(command.value));
  if (command.cmd === 'close') break;
}
await watcher.close();
// stdin stays open (and referenced) after the loop; the harness is done.
process.exit(0);

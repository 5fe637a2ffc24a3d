// Starts ./watch-harness.ts in a child process (as another user, or inside a user
// namespace) and follows what it prints.
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WatchedFolderStatus } from '../../../../shared/bridge/api.ts';
import type { ReadyFile } from '../../../../electron/watch/folder-watcher.ts';
import { waitFor } from './collector.ts';
import type { HarnessCommand, HarnessConfig } from './watch-harness.ts';

const HARNESS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'watch-harness.ts');

export interface HarnessProcess {
  files: ReadyFile[];
  status(id: string): WatchedFolderStatus | undefined;
  waitForState(id: string, state: WatchedFolderStatus['state']): Promise<WatchedFolderStatus>;
  waitForReport(file: string): Promise<ReadyFile>;
  send(command: HarnessCommand): void;
  close(): Promise<void>;
}

/** `unshare -U -r` works here: a user namespace of our own, where inotify limits are ours to set. */
export function canUseUserNamespace(): boolean {
  return spawnSync('unshare', ['-U', '-r', 'sh', '-c', 'echo 100 > /proc/sys/user/max_inotify_watches'], { stdio: 'ignore' }).status === 0;
}

export function startHarness(config: HarnessConfig, how: { userNamespace?: boolean; uid?: number; gid?: number } = {}): HarnessProcess {
  const args = [HARNESS, JSON.stringify(config)];
  const options: SpawnOptions = { stdio: ['pipe', 'pipe', 'pipe'], uid: how.uid, gid: how.gid };
  const child = how.userNamespace ? spawn('unshare', ['-U', '-r', process.execPath, ...args], options) : spawn(process.execPath, args, options);
  const files: ReadyFile[] = [];
  let statuses: WatchedFolderStatus[] = [];
  let stderr = '';
  let exited = false;
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => (exited = true));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { type: 'status'; statuses: WatchedFolderStatus[] } | { type: 'ready'; file: ReadyFile };
    if (message.type === 'status') statuses = message.statuses;
    else files.push(message.file);
  });
  const alive = (): void => {
    if (exited) throw new Error(`The watch harness exited: ${stderr}`);
  };
  const status = (id: string): WatchedFolderStatus | undefined => statuses.find((entry) => entry.folder.id === id);
  return {
    files,
    status,
    waitForState: (id, state) =>
      waitFor(`folder ${id} to be ${state} in the harness (now ${status(id)?.state} ${status(id)?.error ?? ''})`, () => {
        alive();
        return status(id)?.state === state ? status(id) : undefined;
      }),
    waitForReport: (file) =>
      waitFor(`a report of ${file} from the harness`, () => {
        alive();
        return files.find((report) => report.path === file);
      }),
    send: (command) => void child.stdin?.write(`${JSON.stringify(command)}\n`),
    async close() {
      if (!exited) {
        child.stdin?.write(`${JSON.stringify({ cmd: 'close' })}\n`);
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exit;
        clearTimeout(killer);
      }
    },
  };
}

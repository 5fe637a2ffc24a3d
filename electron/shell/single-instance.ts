// One running Verdict: a later launch hands its file and folder arguments to the
// running app ("Open with Verdict", the command line) and quits. On macOS the OS
// delivers opened files as `open-file` events instead.
import { app } from 'electron';
import { exactArgv } from '../file-names/exact-argv.ts';
import { launchDataOf, pathsFromLaunch, pathsFromSecondInstance } from './argv-paths.ts';

export interface SingleInstance {
  /** Files and folders named on this (first) launch. */
  initialPaths: string[];
  /**
   * Later launches and opened files. Called with an empty list when a launch named
   * nothing (the app should just come to the front). Buffered until a handler is set.
   */
  onHandover(handler: (paths: string[]) => void): void;
}

/** null when another instance runs: it got our arguments, and this one should quit. */
export function claimSingleInstance(): SingleInstance | null {
  // The arguments' exact bytes (a name that is not UTF-8); a later launch sends them along the same way.
  const launch = launchDataOf({ argv: exactArgv(process.argv), cwd: () => process.cwd(), defaultApp: process.defaultApp });
  if (!app.requestSingleInstanceLock(launch)) return null;

  let handler: ((paths: string[]) => void) | null = null;
  const pending: string[][] = [];
  const deliver = (paths: string[]) => (handler ? handler(paths) : pending.push(paths));

  const fallbackSkip = launch.defaultApp ? 2 : 1;
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    deliver(pathsFromSecondInstance({ argv, workingDirectory, additionalData }, fallbackSkip));
  });
  app.on('open-file', (event, filePath) => {
    event.preventDefault();
    deliver([filePath]);
  });

  return {
    initialPaths: pathsFromLaunch(launch),
    onHandover(next) {
      handler = next;
      for (const paths of pending.splice(0)) next(paths);
    },
  };
}

// `verdict scan|watch|service …` from the packaged app: the command runs in the main
// process with no window, tray or single-instance lock (a CLI run next to the open app
// is fine: the data directory's own lock guards the data), then the app exits with the
// command's code. The RunAsNode fuse stays off; this is the app's own code path.
import { app } from 'electron';
import { cliCommandFrom, runCliCommand, type CliCommand } from '../cli/commands.ts';
import { exactArgv } from '../file-names/exact-argv.ts';

/** The command this launch names, or null for a windowed launch. */
export function cliCommandOfLaunch(): CliCommand | null {
  // `electron . scan …` in development has the app folder before the arguments.
  return cliCommandFrom(exactArgv(process.argv), process.defaultApp ? 2 : 1);
}

export function runCliInApp(command: CliCommand): void {
  // No Dock icon on macOS for a command-line run.
  app.dock?.hide();
  runCliCommand(command).then(
    (outcome) => {
      if (outcome !== 'running') app.exit(outcome);
    },
    (error: unknown) => {
      process.stderr.write(`Stopped by an unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
      app.exit(2);
    },
  );
}

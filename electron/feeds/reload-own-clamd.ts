// RELOAD for Verdict's own clamd after the feeds changed its folder, whichever Verdict process
// runs it: found through the clamd.conf Verdict wrote (its socket, and that it loads Verdict's own
// folder). None running is no error: the next clamd loads the folder as it is.
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { clamdAnswers } from '../engine/own-clamd/clamd-commands.ts';
import { ownClamdFiles } from '../engine/own-clamd/clamd-config.ts';
import { reloadAndMark } from '../engine/own-clamd/reload-and-mark.ts';
import { ownDatabaseDir } from '../engine/own-clamd/find-clamav.ts';
import { parseClamdConf } from '../engine/conf/system-clamd-conf.ts';

export type ReloadOutcome = 'reloaded' | 'not_running';

export async function reloadOwnClamd(dataDir: string): Promise<ReloadOutcome> {
  let conf: Map<string, string>;
  try {
    conf = parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8'));
  } catch {
    return 'not_running';
  }
  const socketPath = conf.get('localsocket');
  const loads = conf.get('databasedirectory');
  if (socketPath === undefined || loads === undefined || !samePath(loads, ownDatabaseDir(dataDir))) return 'not_running';
  if (!(await clamdAnswers({ socketPath }, 2_000))) return 'not_running';
  // Marked once clamd uses the new folder: the signature identity trusts the folder only as clamd last read it.
  await reloadAndMark(dataDir, { socketPath });
  return 'reloaded';
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

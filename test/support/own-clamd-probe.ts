// Whether Verdict's own clamd (of a data dir) detects `probe` now: clamdscan on its socket exits 1
// for a find. Tests and the bench wait on it after a RELOAD, until clamd has loaded the new database.
import { execFileSync } from 'node:child_process';
import { ownClamdFiles } from '../../electron/engine/own-clamd/clamd-config.ts';

export function ownClamdDetects(dataDir: string, probe: string): boolean {
  try {
    execFileSync('clamdscan', ['--no-summary', '--stream', `--config-file=${ownClamdFiles(dataDir).configPath}`, probe], { stdio: 'ignore' });
    return false;
  } catch (error) {
    return (error as { status?: number }).status === 1;
  }
}

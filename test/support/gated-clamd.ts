// The system's clamd behind a gate: a wrapper script that waits until the test opens
// the gate, then becomes clamd (exec: the same pid). While the gate is shut, Verdict's
// own clamd is "loading" for as long as the test needs, without depending on timing.
import { readFileSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findClamd } from '../../electron/engine/own-clamd/find-clamav.ts';

export interface GatedClamd {
  /** The executable to give as Verdict's clamd. */
  path: string;
  open(): Promise<void>;
}

export async function gatedClamd(dir: string): Promise<GatedClamd | null> {
  const clamd = findClamd();
  if (clamd === null) return null;
  const gate = join(dir, 'clamd-gate');
  const path = join(dir, 'gated-clamd');
  await writeFile(path, `#!/bin/sh\nwhile [ ! -e '${gate}' ]; do sleep 0.05; done\nexec '${clamd}' "$@"\n`);
  await chmod(path, 0o755);
  return { path, open: () => writeFile(gate, '') };
}

/** The system's clamd, counting its launches (one line per start in a file): restart loops show up as counts. */
export async function countingClamd(dir: string): Promise<{ path: string; launches(): number } | null> {
  const clamd = findClamd();
  if (clamd === null) return null;
  const log = join(dir, 'clamd-launches');
  const path = join(dir, 'counting-clamd');
  await writeFile(log, '');
  await writeFile(path, `#!/bin/sh\necho launch >> '${log}'\nexec '${clamd}' "$@"\n`);
  await chmod(path, 0o755);
  return { path, launches: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

// The system's clamd behind a gate: a wrapper script that waits until the test opens
// the gate, then becomes clamd (exec: the same pid). While the gate is shut, Verdict's
// own clamd is "loading" for as long as the test needs, without depending on timing.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findClamd } from '../../electron/local-service/engines/own-clamd/find-clamav.ts';

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

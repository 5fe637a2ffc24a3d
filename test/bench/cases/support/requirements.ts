// The tools a case needs. In CI they are installed and a missing one is an
// error; elsewhere the case is skipped, loudly (a notice on stderr and a
// `skipped` row in the table).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findClamdBinary } from '../../../support/clamd.ts';
import type { Requirement } from '../bench-case.ts';

/** Where the e2e harness launches Chromium from (test/e2e/support/app-harness.ts). */
const CHROMIUM_PATH = '/usr/bin/chromium';

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && isExecutable(join(dir, name)));
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const INSTALL: Record<Requirement, string> = {
  clamd: 'apt-get install clamav-daemon clamav-testfiles',
  clamdscan: 'apt-get install clamdscan',
  chromium: 'apt-get install chromium',
  curl: 'apt-get install curl',
  sha256sum: 'apt-get install coreutils',
};

/** The requirements that are not met, each with how to install it. */
export function missingRequirements(needs: readonly Requirement[]): string[] {
  const present: Record<Requirement, () => boolean> = {
    clamd: () => findClamdBinary() !== null,
    clamdscan: () => onPath('clamdscan'),
    chromium: () => isExecutable(CHROMIUM_PATH),
    curl: () => onPath('curl'),
    sha256sum: () => onPath('sha256sum'),
  };
  return needs.filter((need) => !present[need]()).map((need) => `${need} is not installed (${INSTALL[need]})`);
}

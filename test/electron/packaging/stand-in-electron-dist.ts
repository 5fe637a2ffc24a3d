// A stand-in for the unpacked Electron distribution that electron-builder copies
// (`electronDist`), since the real one cannot be downloaded here. Its "binary" is a
// shell script that carries Electron's fuse wire (sentinel, version 1, eight fuses), so
// electron-builder's @electron/fuses step flips real bytes that a test can read back.
import fs from 'node:fs';
import path from 'node:path';

/** @electron/fuses' marker in the Electron binary (constants.js). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

export function writeStandInElectronDist(dir: string): void {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  // Every fuse starts enabled ('1'), as the opposite of what the config sets for most of them.
  const wire = Buffer.concat([Buffer.from(`#!/bin/sh\n# ${FUSE_SENTINEL}`), Buffer.from([1, 8]), Buffer.from('11111111\necho "stand-in Electron" >&2\nexit 1\n')]);
  fs.writeFileSync(path.join(dir, 'electron'), wire, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'chrome-sandbox'), '', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'stand-in\n');
  fs.writeFileSync(path.join(dir, 'version'), '45.3.4');
}

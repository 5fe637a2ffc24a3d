// Signature databases that tests write for Verdict's own clamd (there are no
// official databases offline): EICAR as a body signature and any file by its MD5,
// the way `sigtool --md5 FILE > x.hdb` makes it.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';

export const EICAR_SIGNATURE = 'Verdict-Test-Eicar.UNOFFICIAL';

/** A database folder holding the EICAR body signature. */
export async function writeEicarDatabase(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const hex = Buffer.from(EICAR_TEST_STRING, 'latin1').toString('hex');
  await writeFile(join(dir, 'verdict-eicar.ndb'), `Verdict-Test-Eicar:0:*:${hex}\n`);
  return dir;
}

/**
 * Writes a file of random bytes and adds its MD5 signature (made by sigtool) to `dbDir`
 * as `<name>.hdb`; returns the file's path and the name clamd reports for it.
 */
export async function writeCustomSignature(dbDir: string, fileDir: string, name: string): Promise<{ file: string; signature: string }> {
  const file = join(fileDir, `${name}.bin`);
  await writeFile(file, randomBytes(4096));
  // sigtool names the signature after the file: `<md5>:<size>:<name>.bin`.
  const line = execFileSync('sigtool', ['--md5', file], { encoding: 'utf8' }).trim();
  await writeFile(join(dbDir, `${name}.hdb`), `${line}\n`);
  return { file, signature: `${name}.bin.UNOFFICIAL` };
}

// Files for the clamd client tests: distinct files of random bytes, some carrying the EICAR
// string (the test clamd's body signature finds it anywhere), in a private folder: root's,
// 0700, each file 0600, so a clamd running as another user cannot open them by path.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import type { ClamdVerdict } from '../../../electron/engine/clamd/clamd-client.ts';
import { TEST_SIGNATURES } from '../../support/clamd.ts';

export const EICAR = Buffer.from(EICAR_TEST_STRING, 'latin1');

export interface TestFile {
  path: string;
  infected: boolean;
  fd: number;
}

export interface PrivateFolder {
  dir: string;
  /** Writes a file (random bytes, EICAR inside when `infected`; or the bytes given) and opens it. */
  file(name: string, content: boolean | Buffer, size?: number): Promise<TestFile>;
  remove(): Promise<void>;
}

export async function privateFolder(): Promise<PrivateFolder> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-private-'));
  const fds: number[] = [];
  return {
    dir,
    async file(name, content, size = 4096) {
      const path = join(dir, name);
      const infected = content === true;
      const body = Buffer.isBuffer(content) ? content : randomBytes(size);
      await writeFile(path, infected ? Buffer.concat([body.subarray(0, size >> 1), EICAR, body.subarray(size >> 1)]) : body, { mode: 0o600 });
      const fd = openSync(path, 'r');
      fds.push(fd);
      return { path, infected, fd };
    },
    async remove() {
      for (const fd of fds.splice(0)) closeSync(fd);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The verdict a test file must get: EICAR found, or clean. */
export function expectedVerdict(file: { infected: boolean }, via: 'fildes' | 'instream'): ClamdVerdict {
  return file.infected ? { kind: 'found', signatures: [TEST_SIGNATURES.eicar], via } : { kind: 'clean', via };
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

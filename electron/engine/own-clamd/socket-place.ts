// Where Verdict's own clamd listens: a Unix socket in the data directory, unless
// that path is too long for a socket address or the data directory's filesystem
// cannot hold sockets (FAT, some network mounts); then a short private folder
// under the OS temp dir, named after the data directory so each has its own.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** sun_path holds 108 bytes on Linux, 104 on macOS and the BSDs, with the final NUL. */
export function maxSocketPathBytes(platform: NodeJS.Platform = process.platform): number {
  return platform === 'linux' ? 107 : 103;
}

export type SocketPlace =
  | { ok: true; socketPath: string; fallback: null | 'path_too_long' | 'sockets_unsupported' }
  | { ok: false; problem: 'socket_path_too_long' | 'sockets_unsupported'; detail: string };

export async function chooseSocketPlace(dataDir: string, options: { tempDir?: string } = {}): Promise<SocketPlace> {
  const preferred = join(dataDir, 'clamd.sock');
  let fallback: 'path_too_long' | 'sockets_unsupported' = 'path_too_long';
  let firstDetail = `${Buffer.byteLength(preferred)} bytes`;
  if (fits(preferred)) {
    const probe = await probeSockets(dataDir);
    if (probe === null) return { ok: true, socketPath: preferred, fallback: null };
    fallback = 'sockets_unsupported';
    firstDetail = probe;
  }

  const privateDir = join(options.tempDir ?? tmpdir(), `verdict-clamd-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`);
  const socketPath = join(privateDir, 'clamd.sock');
  if (!fits(socketPath)) {
    return { ok: false, problem: 'socket_path_too_long', detail: `${preferred} (${firstDetail}) and ${socketPath} are both too long for a Unix socket` };
  }
  const madeDir = makePrivateDir(privateDir);
  if (madeDir !== null) return { ok: false, problem: 'sockets_unsupported', detail: `${dataDir}: ${firstDetail}; ${privateDir}: ${madeDir}` };
  const probe = await probeSockets(privateDir);
  if (probe !== null) return { ok: false, problem: 'sockets_unsupported', detail: `${dataDir}: ${firstDetail}; ${privateDir}: ${probe}` };
  return { ok: true, socketPath, fallback };
}

function fits(socketPath: string): boolean {
  return Buffer.byteLength(socketPath) <= maxSocketPathBytes();
}

/** null when a Unix socket can be bound in `dir`, else the system's error code. */
function probeSockets(dir: string): Promise<string | null> {
  const probePath = join(dir, `.socket-probe-${process.pid}`);
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(probePath, () => {
      server.close(() => {
        rmSync(probePath, { force: true });
        resolve(null);
      });
    });
  });
}

/**
 * The temp dir is shared with other users: the folder must be ours and closed to
 * everyone else, or someone could put their own socket where ours is expected.
 */
function makePrivateDir(dir: string): string | null {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return (error as NodeJS.ErrnoException).code ?? 'error';
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) return 'not a directory';
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return `owned by uid ${stat.uid}`;
  if ((stat.mode & 0o077) !== 0) return `mode ${(stat.mode & 0o777).toString(8)} is open to others`;
  return null;
}

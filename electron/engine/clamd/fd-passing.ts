// The fd-passing addon (electron/engine/fdpass, package @verdict/fdpass), loaded softly:
// where it is missing (Windows, a failed build) Verdict streams files to clamd instead.
// Loaded with createRequire, like keytar: a native package stays a run-time require (a bundle
// that imports this module must list '@verdict/fdpass' in vite.config.ts RUNTIME_PACKAGES).
import { createRequire } from 'node:module';

export interface FdPassing {
  /** A connected, non-blocking AF_UNIX stream socket; Node's net.Socket({ fd }) takes it over. */
  connectUnix(path: string | Buffer): number;
  /** One non-blocking sendmsg() of `data` with `fileFd` attached (-1: none); the bytes sent. */
  sendFd(socketFd: number, fileFd: number, data: Buffer): number;
}

export type FdPassingLoad = { ok: true; addon: FdPassing } | { ok: false; reason: string };

let loaded: FdPassingLoad | undefined;

/** The addon, or why it is not there; tried once per thread. */
export function loadFdPassing(): FdPassingLoad {
  loaded ??= tryLoad();
  return loaded;
}

function tryLoad(): FdPassingLoad {
  if (process.platform === 'win32') return { ok: false, reason: 'Windows cannot pass file descriptors to clamd' };
  try {
    const addon = createRequire(import.meta.url)('@verdict/fdpass') as Partial<FdPassing>;
    if (typeof addon.connectUnix !== 'function' || typeof addon.sendFd !== 'function') {
      return { ok: false, reason: 'the fd-passing addon (@verdict/fdpass) is not the expected module' };
    }
    return { ok: true, addon: addon as FdPassing };
  } catch (error) {
    const detail = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { ok: false, reason: `the fd-passing addon (@verdict/fdpass) could not be loaded (${detail})` };
  }
}

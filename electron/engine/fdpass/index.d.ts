// The addon's API (src/fdpass.c). Errors are Node-style: `code` (e.g. 'EAGAIN'), `errno`, `syscall`.

/** A connected, non-blocking AF_UNIX stream socket (close-on-exec); hand it to `new net.Socket({ fd })`. */
export function connectUnix(path: string | Buffer): number;

/**
 * One non-blocking sendmsg() of `data` (at least one byte) with `fileFd` attached as
 * SCM_RIGHTS (fileFd -1: plain data). Returns the bytes sent; throws EAGAIN when the
 * socket's buffer is full.
 */
export function sendFd(socketFd: number, fileFd: number, data: Buffer): number;

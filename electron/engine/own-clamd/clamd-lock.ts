// One Verdict-run clamd per data directory: the process that runs it holds clamd.lock (a pid lock).
export { acquirePidLock as acquireClamdLock, isAlive, readPid, removeFile, type PidLock as ClamdLock } from '../../pid-lock/pid-lock.ts';

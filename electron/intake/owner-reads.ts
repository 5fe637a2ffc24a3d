// Whether a file's own stat already says this process may read it, so intake need not ask the
// kernel again (access(2) is one more request on the core's thread per file). Only the owner's
// read bit answers: POSIX ACLs never take read from the owner, while group and other bits can be
// narrowed by an ACL entry. Anything else (another owner, no owner read bit) is asked with access().
// A security module (AppArmor, SELinux) may still refuse the open: the file then fails where it
// is read, with that reason, and is accounted for as any unreadable file.
const S_IRUSR = 0o400;

/** True when the process's user owns the file and the owner may read it; false means "ask". */
export function ownerMayRead(stats: { uid: number | bigint; mode: number | bigint }, uid: number | null = currentUid): boolean {
  return uid !== null && Number(stats.uid) === uid && (Number(stats.mode) & S_IRUSR) !== 0;
}

const currentUid = typeof process.getuid === 'function' ? process.getuid() : null;

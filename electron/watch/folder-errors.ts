// Turns a file-system error about a watched folder into the state the user sees
// and a message that says what happened and what to do about it.
import type { WatchState } from '../../shared/bridge/api.ts';

export interface FolderProblem {
  state: Extract<WatchState, 'missing' | 'error'>;
  /** The errno code (`ENOENT`, `ENOSPC`, …) or `ENOTDIR` for a path that is not a folder. */
  code: string;
  message: string;
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The path an fs error is about, when it says. */
export function errorPath(error: unknown): string | undefined {
  const errorPathValue = (error as { path?: unknown } | null)?.path;
  return typeof errorPathValue === 'string' ? errorPathValue : undefined;
}

export const INOTIFY_LIMIT_MESSAGE =
  'The system limit on watched folders is reached (ENOSPC: inotify watches). Raise it, e.g. ' +
  '`echo fs.inotify.max_user_watches=524288 | sudo tee /etc/sysctl.d/90-inotify.conf && sudo sysctl --system`, ' +
  'or watch fewer folders or turn off subfolders. Verdict retries on its own.';

export const TOO_MANY_FILES_MESSAGE =
  'Too many open files (EMFILE: the process file limit or the inotify instance limit, ' +
  'fs.inotify.max_user_instances, is reached). Close other programs that watch files or raise the limit; Verdict retries on its own.';

export function describeFolderError(error: unknown): FolderProblem {
  const code = errorCode(error) ?? 'UNKNOWN';
  switch (code) {
    case 'ENOENT':
      return { state: 'missing', code, message: 'The folder is not there (deleted, renamed or not mounted). Watching resumes when it is back.' };
    case 'ENOTDIR':
      return { state: 'missing', code, message: 'The path is not a folder. Watching resumes when a folder is there.' };
    case 'EACCES':
    case 'EPERM':
      return { state: 'error', code, message: `Permission denied (${code}): Verdict may not read this folder. Watching resumes when it may.` };
    case 'ENOSPC':
      return { state: 'error', code, message: INOTIFY_LIMIT_MESSAGE };
    case 'EMFILE':
    case 'ENFILE':
      return { state: 'error', code, message: TOO_MANY_FILES_MESSAGE };
    default: {
      const text = error instanceof Error ? error.message : String(error);
      return { state: 'error', code, message: `Cannot watch this folder: ${text}` };
    }
  }
}

/** Errors that stop a whole folder from being watched, wherever in the tree they happen. */
export function isResourceLimit(code: string | undefined): boolean {
  return code === 'ENOSPC' || code === 'EMFILE' || code === 'ENFILE';
}

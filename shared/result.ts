// Results that cross a boundary (IPC, the core's public API) carry a code and
// a message the UI can show, never a raw exception (STYLE.md, practice 5).

export interface AppError {
  /** Stable machine-readable code; the UI maps it to localized help. */
  code: string;
  /** Human-readable, safe to show (never contains a secret). */
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: string, message: string): Result<never> => ({ ok: false, error: { code, message } });

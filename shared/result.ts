// Results that cross a boundary (IPC, the core's public API) carry a code and
// a message the UI can show, never a raw exception (STYLE.md, practice 5).

/**
 * What a message is about (a path, a rule, a limit in bytes), so the UI can word
 * it in its own language from the code; the English `message` says the same.
 */
export type ErrorParams = Record<string, string | number>;

export interface AppError {
  /** Stable machine-readable code; the UI maps it to localized help. */
  code: string;
  /** Human-readable English, safe to show (never contains a secret); the CLIs print it. */
  message: string;
  params?: ErrorParams;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: string, message: string, params?: ErrorParams): Result<never> => ({ ok: false, error: params ? { code, message, params } : { code, message } });

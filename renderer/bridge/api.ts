// The renderer's single handle on the preload API, and a helper that turns a
// failed Result into a visible notice instead of a silent rejection.
import type { VerdictApi } from '../../shared/bridge/api.ts';
import type { Result } from '../../shared/result.ts';
import { verdictStore } from '../store/store.ts';
import { notifyFailure } from './error-notice.ts';

export const api: VerdictApi = window.verdict;

/** The value of a successful call, or undefined after showing the error to the user. */
export async function call<T>(pending: Promise<Result<T>>): Promise<T | undefined> {
  try {
    const result = await pending;
    if (result.ok) return result.value;
    notifyFailure(verdictStore.getState(), result.error);
  } catch (error) {
    verdictStore.getState().notify('error', 'error.generic', undefined, { tool: 'core', words: error instanceof Error ? error.message : String(error) });
  }
  return undefined;
}

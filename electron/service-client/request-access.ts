// What a request needs before it goes out: the key (checked to be sendable),
// the language of the service's messages, and a token from the request budget.
import type { Language } from '../../shared/service-contract/limits.ts';
import type { ClientState } from './client-state.ts';
import { abortedError, ServiceError } from './service-error.ts';

/** Header values must be visible ASCII; a pasted key with spaces or a BOM would be rejected by undici. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

export async function readKey(state: ClientState): Promise<string> {
  let key: string | null | undefined;
  try {
    key = await state.apiKey();
  } catch {
    throw new ServiceError('unauthorized', 'The API key could not be read.');
  }
  key = key?.trim();
  if (!key) throw new ServiceError('unauthorized', 'No API key is set for the service.');
  if (!HEADER_SAFE.test(key)) {
    throw new ServiceError('unauthorized', 'The API key contains spaces or characters outside ASCII; check it for a typo.');
  }
  return key;
}

export async function readLanguage(state: ClientState): Promise<Language | undefined> {
  try {
    return (await state.language?.()) ?? undefined;
  } catch {
    return undefined;
  }
}

export async function takeBudget(state: ClientState, signal: AbortSignal | undefined): Promise<void> {
  if (!state.budget) return;
  try {
    await state.budget.acquire(signal);
  } catch {
    if (signal?.aborted) throw abortedError();
    throw new ServiceError('aborted', 'The request budget was closed.');
  }
}

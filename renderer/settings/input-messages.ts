// The user's words for what is wrong with a typed service address or API key
// (the checks are shared with the core, which refuses the same inputs).
import { MAX_API_KEY_LENGTH, MAX_BASE_URL_LENGTH, type ApiKeyProblem, type BaseUrlProblem } from '../../shared/settings/input-problems.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';

export interface FieldMessage {
  key: MessageKey;
  params?: MessageParams;
}

export function baseUrlMessage(problem: BaseUrlProblem): FieldMessage {
  return problem === 'too_long' ? { key: 'settings.baseUrl.too_long', params: { max: MAX_BASE_URL_LENGTH } } : { key: `settings.baseUrl.${problem}` };
}

export function apiKeyMessage(found: ApiKeyProblem): FieldMessage {
  switch (found.problem) {
    case 'empty':
      return { key: 'settings.apiKey.empty' };
    case 'too_long':
      return { key: 'settings.apiKey.too_long', params: { length: found.length, max: MAX_API_KEY_LENGTH } };
    default:
      return { key: `settings.apiKey.${found.problem}`, params: { position: found.position } };
  }
}

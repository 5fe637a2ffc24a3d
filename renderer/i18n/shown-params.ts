// Message parameters as the page shows them: every text parameter (a file name, a
// path, the core's sentence quoting one) through displayName(), so a control or
// bidi character in a name cannot disguise a notice or a dialog. The stored
// notice or request keeps the real text; numbers are left to the translator.
import { displayName } from '../../shared/display-name.ts';
import type { MessageParams } from './messages.ts';

export function shownParams(params?: MessageParams): MessageParams | undefined {
  return params && Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? displayName(value) : value]));
}

// The translator for the language the UI currently speaks.
import { useVerdict } from '../store/use-verdict.ts';
import { selectLocale } from '../store/settings-slice.ts';
import { translator, type Translator } from './messages.ts';

export function useTranslator(): Translator {
  return translator(useVerdict(selectLocale));
}

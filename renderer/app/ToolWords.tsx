// A program's words (tool-said.ts) under the sentence in the UI's language that says
// what they mean: named as that program's, and marked lang="en" so a screen reader
// reads them as English (<samp>: a program's output).
import type { ReactElement, ReactNode } from 'react';
import { displayName } from '../../shared/display-name.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { TOOL_LANGUAGE, type ToolName, type ToolSaid } from './tool-said.ts';

const SOURCE_KEYS: Record<ToolName, MessageKey> = {
  freshclam: 'tool.freshclam',
  clamd: 'tool.clamd',
  keychain: 'tool.keychain',
  system: 'tool.system',
  core: 'tool.core',
};

export function ToolWords({ said }: { said: ToolSaid }): ReactElement {
  const { t } = useTranslator();
  // A path in the words (an error about a file) is shown like every name.
  return (
    <span className="tool-words" data-testid="tool-words" data-tool={said.tool}>
      <span className="tool-words__source">{t(SOURCE_KEYS[said.tool])}</span>{' '}
      <samp lang={TOOL_LANGUAGE}>{displayName(said.words)}</samp>
    </span>
  );
}

/** `text` with each of `words` in it marked as a program's (lang="en"): for a sentence that quotes them. */
export function withToolWords(text: string, words: readonly string[]): ReactNode {
  const quoted = words.filter((word) => word.trim() !== '' && text.includes(word));
  if (quoted.length === 0) return text;
  const parts: ReactNode[] = [];
  let rest = text;
  let key = 0;
  for (;;) {
    const next = quoted
      .map((word) => ({ word, at: rest.indexOf(word) }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at || b.word.length - a.word.length)[0];
    if (!next) break;
    if (next.at > 0) parts.push(rest.slice(0, next.at));
    parts.push(
      <span key={key++} lang={TOOL_LANGUAGE} data-testid="tool-words-inline">
        {next.word}
      </span>,
    );
    rest = rest.slice(next.at + next.word.length);
  }
  if (rest) parts.push(rest);
  return parts;
}

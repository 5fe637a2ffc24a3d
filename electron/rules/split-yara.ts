// A YARA file cut into its rules (issue 28 §4), so each rule can be checked by ClamAV's loader on
// its own: in one file, a syntax error also breaks the rules after it. Not a YARA parser: it
// follows comments, text strings, hex strings and regular expressions only as far as needed to
// find where each `rule NAME { … }` ends. File-level `import` and `include` lines are kept apart.

export interface YaraRule {
  name: string;
  /** 1-based line of the rule's first line (its modifiers, or `rule`) in the file. */
  line: number;
  /** The rule's text, from its modifiers to its closing brace. */
  text: string;
}

export interface SplitYara {
  rules: YaraRule[];
  /** `import "pe"` and the like: ClamAV supports no module, so a rule using one is refused by its loader. */
  imports: string[];
  /** `include "other.yar"`: not followed (rules are imported file by file). */
  includes: string[];
  /** Text outside any rule that is neither an import, an include nor a comment, with its line. */
  stray: { line: number; text: string }[];
}

const RULE_START = /^((?:(?:private|global)\s+)*)rule\s+([A-Za-z_][A-Za-z0-9_]{0,127})\b/;

export function splitYara(source: string): SplitYara {
  const result: SplitYara = { rules: [], imports: [], includes: [], stray: [] };
  let i = 0;
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  while (i < source.length) {
    i = skipSpaceAndComments(source, i);
    if (i >= source.length) break;
    const rest = source.slice(i, i + 400);
    const directive = /^(import|include)\s+"((?:[^"\\\n]|\\.)*)"/.exec(rest);
    if (directive) {
      (directive[1] === 'import' ? result.imports : result.includes).push(directive[0]);
      i += directive[0].length;
      continue;
    }
    const start = RULE_START.exec(rest);
    if (!start?.[2]) {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      result.stray.push({ line: lineAt(i), text: source.slice(i, stop).trim().slice(0, 200) });
      i = stop + 1;
      continue;
    }
    const open = source.indexOf('{', i + start[0].length);
    const close = open === -1 ? -1 : matchingBrace(source, open);
    const stop = close === -1 ? source.length : close + 1;
    result.rules.push({ name: start[2], line: lineAt(i), text: source.slice(i, stop) });
    i = stop;
  }
  return result;
}

function skipSpaceAndComments(source: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < source.length && /\s/.test(source[i]!)) i++;
    if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end + 1;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      i = end === -1 ? source.length : end + 2;
    } else {
      return i;
    }
  }
}

/** The index of the `}` that closes the `{` at `open`, past strings, comments and regular expressions; -1 when none. */
function matchingBrace(source: string, open: number): number {
  let depth = 0;
  let i = open;
  let previous = '';
  while (i < source.length) {
    const char = source[i]!;
    if (source.startsWith('//', i) || source.startsWith('/*', i)) {
      i = skipSpaceAndComments(source, i);
      continue;
    }
    if (char === '"') {
      i = endOfQuoted(source, i, '"');
      previous = '"';
      continue;
    }
    // A regular expression starts where a value is expected: after `=` (a string definition) or `matches`.
    if (char === '/' && (previous === '=' || /matches\s*$/.test(source.slice(Math.max(0, i - 12), i)))) {
      i = endOfQuoted(source, i, '/');
      previous = '/';
      continue;
    }
    if (char === '{') depth++;
    if (char === '}' && --depth === 0) return i;
    if (!/\s/.test(char)) previous = char;
    i++;
  }
  return -1;
}

/** The index after the closing `quote` (a backslash escapes one character; a line break ends it). */
function endOfQuoted(source: string, from: number, quote: string): number {
  let i = from + 1;
  while (i < source.length && source[i] !== quote && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

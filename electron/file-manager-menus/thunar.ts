// Thunar (Xfce): a custom action in ~/.config/Thunar/uca.xml, the file that also holds the
// user's own actions, so ours is added and removed as one <action> element (found by its
// unique-id) and the rest of the file is left byte for byte. Thunar replaces %F by each
// path quoted with g_shell_quote, turns %% into %, and splits the line with
// g_shell_parse_argv. Thunar has no system-wide uca.xml: the .deb cannot add this one.
// Thunar reads the file when it starts; a running Thunar shows the entry after a restart.
import path from 'node:path';
import { ICON_NAME, MARKER, SCAN_COMMENT, SCAN_LABEL, singleQuote, type MenuFile, type MenuLanguage, type MenuPlaces } from './menu-file.ts';

export const THUNAR_UNIQUE_ID = 'verdict-scan-with-verdict';
const FILE_KINDS = ['directories', 'audio-files', 'image-files', 'other-files', 'text-files', 'video-files'];

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function thunarCommand(command: readonly string[]): string {
  return `${command.map((arg) => singleQuote(arg).replace(/%/g, '%%')).join(' ')} %F`;
}

/** Our <action> element, indented as Thunar writes its own. */
export function thunarAction(command: readonly string[], language: MenuLanguage): string {
  return [
    '<action>',
    `\t<icon>${ICON_NAME}</icon>`,
    `\t<name>${xmlText(SCAN_LABEL[language])}</name>`,
    '\t<submenu></submenu>',
    `\t<unique-id>${THUNAR_UNIQUE_ID}</unique-id>`,
    `\t<command>${xmlText(thunarCommand(command))}</command>`,
    `\t<description>${xmlText(`${SCAN_COMMENT[language]} (${MARKER})`)}</description>`,
    '\t<range>*</range>',
    '\t<patterns>*</patterns>',
    ...FILE_KINDS.map((kind) => `\t<${kind}/>`),
    '</action>',
  ].join('\n');
}

/** The file as Verdict writes it when the user has none: nothing but our action. */
const EMPTY_FILE = '<?xml version="1.0" encoding="UTF-8"?>\n<actions>\n</actions>\n';

// One <action> element holding our unique-id; the tempered dot never runs past an </action>.
const OUR_ACTION = new RegExp(`[ \\t]*<action>(?:(?!</action>)[\\s\\S])*?<unique-id>${THUNAR_UNIQUE_ID}</unique-id>[\\s\\S]*?</action>[ \\t]*\\r?\\n?`, 'g');

/** The user's file without our action (or with it replaced when `action` is given). */
export function withThunarAction(existing: string | null, action: string | null): string {
  const base = (existing ?? EMPTY_FILE).replace(OUR_ACTION, '');
  if (action === null) return base;
  const end = base.lastIndexOf('</actions>');
  if (end === -1) throw new Error('Thunar\'s uca.xml has no </actions>: it was left as it is.');
  const before = base.slice(0, end);
  return `${before}${before.endsWith('\n') ? '' : '\n'}${action}\n${base.slice(end)}`;
}

/** Whether the text is what Verdict would leave once its action is gone from a file it created. */
export function isEmptyThunarFile(text: string): boolean {
  return text === EMPTY_FILE;
}

export function hasThunarAction(text: string): boolean {
  return new RegExp(OUR_ACTION.source).test(text);
}

export function thunarMenuFile(places: MenuPlaces, command: readonly string[], language: MenuLanguage): MenuFile {
  return { manager: 'thunar', path: path.join(places.configHome, 'Thunar', 'uca.xml'), ownership: 'shared', content: thunarAction(command, language), mode: 0o644 };
}

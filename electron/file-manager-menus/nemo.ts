// Nemo (Cinnamon): an action file, ~/.local/share/nemo/actions/verdict-scan.nemo_action (a
// GKeyFile). Nemo puts the selection into the Exec text and splits it with g_shell_parse_argv;
// paths go in with an escaping that differs between Nemo versions, so the entry takes URIs
// (%U): they are percent-encoded (no space, newline, quote or backslash is left), and
// Quote=double keeps a ' (which URIs may hold) inside one argument. Verdict reads file:// URIs
// as paths (electron/shell/argv-paths.ts). Nemo looks only at the first % of Exec, so a
// command path holding a % would hide %U; the install step refuses such a command.
import path from 'node:path';
import { ICON_NAME, MARKER, SCAN_COMMENT, SCAN_LABEL, keyFileString, singleQuote, type MenuFile, type MenuPlaces } from './menu-file.ts';

export const NEMO_ACTION_NAME = 'verdict-scan.nemo_action';

export function nemoExecUsable(command: readonly string[]): boolean {
  return !command.some((arg) => arg.includes('%'));
}

export function nemoAction(command: readonly string[]): string {
  return [
    `# ${MARKER}`,
    '[Nemo Action]',
    `Name=${keyFileString(SCAN_LABEL.en)}`,
    `Name[de]=${keyFileString(SCAN_LABEL.de)}`,
    `Comment=${keyFileString(SCAN_COMMENT.en)}`,
    `Comment[de]=${keyFileString(SCAN_COMMENT.de)}`,
    `Exec=${keyFileString(`${command.map(singleQuote).join(' ')} %U`)}`,
    `Icon-Name=${ICON_NAME}`,
    // Any number of files and folders, of every kind ("any" matches folders too).
    'Selection=notnone',
    'Extensions=any;',
    'Quote=double',
    '',
  ].join('\n');
}

export function nemoMenuFile(places: MenuPlaces, command: readonly string[]): MenuFile {
  return { manager: 'nemo', path: path.join(places.dataHome, 'nemo', 'actions', NEMO_ACTION_NAME), ownership: 'own', content: nemoAction(command), mode: 0o644 };
}

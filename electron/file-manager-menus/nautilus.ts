// GNOME Files (Nautilus): a script in ~/.local/share/nautilus/scripts, shown under
// Scripts in the context menu with its file name as the label. Nautilus runs it in the
// open folder and passes the selected names as arguments (not through a shell), so "$@"
// keeps every name exact; NAUTILUS_SCRIPT_SELECTED_FILE_PATHS is newline-separated and
// cannot carry a name that holds a newline.
import path from 'node:path';
import { MARKER, SCAN_LABEL, singleQuote, type MenuFile, type MenuLanguage, type MenuPlaces } from './menu-file.ts';

export function nautilusScript(command: readonly string[]): string {
  return [
    '#!/bin/sh',
    `# ${MARKER}; Verdict's Settings remove it again.`,
    '# A name relative to the open folder becomes an absolute path, so that none is read as an option.',
    'for name do',
    '  case $name in',
    '    /*) ;;',
    '    *) name=$PWD/$name ;;',
    '  esac',
    '  set -- "$@" "$name"',
    '  shift',
    'done',
    `exec ${command.map(singleQuote).join(' ')} "$@"`,
    '',
  ].join('\n');
}

/** The script's file name is its label, so there is one per language; removing looks for both. */
export function nautilusScriptPaths(places: MenuPlaces): Record<MenuLanguage, string> {
  const folder = path.join(places.dataHome, 'nautilus', 'scripts');
  return { en: path.join(folder, SCAN_LABEL.en), de: path.join(folder, SCAN_LABEL.de) };
}

export function nautilusMenuFile(places: MenuPlaces, command: readonly string[], language: MenuLanguage): MenuFile {
  return { manager: 'nautilus', path: nautilusScriptPaths(places)[language], ownership: 'own', content: nautilusScript(command), mode: 0o755 };
}
